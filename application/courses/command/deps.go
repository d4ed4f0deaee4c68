package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/courses"
)

// Deps are the ports every course command uses.
type Deps struct {
	Tx         platform.Transactor
	Repo       courses.Repository
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
