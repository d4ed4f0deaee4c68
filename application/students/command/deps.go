// Package command creates, edits and deletes students.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/students"
)

// WorkspaceDirectory tells whether a workspace exists (a port onto the workspaces module).
type WorkspaceDirectory interface {
	Exists(ctx context.Context, workspaceID string) (bool, error)
}

// Deps are the ports every student command uses.
type Deps struct {
	Tx         platform.Transactor
	Repo       students.Repository
	ReadModel  query.ReadModel
	Workspaces WorkspaceDirectory
	Publisher  platform.Publisher
	IDs        platform.IDs
	Clock      platform.Clock
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	ok, err := d.Workspaces.Exists(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.NotFound("workspace %s not found", workspaceID)
	}
	return nil
}
