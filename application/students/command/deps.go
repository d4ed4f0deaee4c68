// Package command creates, edits and deletes students.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/students"
)

// Deps are the ports every student command uses.
type Deps struct {
	Tx         platform.Transactor
	Repo       students.Repository
	ReadModel  query.ReadModel
	Workspaces platform.WorkspaceDirectory
	Publisher  platform.Publisher
	IDs        platform.IDs
	Clock      platform.Clock
	Observer   platform.Observer // logging, metrics and tracing of every use case
}

func (d Deps) requireWorkspace(ctx context.Context, workspaceID string) error {
	return platform.RequireWorkspace(ctx, d.Workspaces, workspaceID)
}
