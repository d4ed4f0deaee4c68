package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// WorkspaceDirectory tells whether a workspace exists (a port onto the workspaces module).
type WorkspaceDirectory interface {
	Exists(ctx context.Context, workspaceID string) (bool, error)
}

// Deps are the ports every course command uses.
type Deps struct {
	Tx         platform.Transactor
	Repo       courses.Repository
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
