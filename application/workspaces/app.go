// Package workspaces is the application service of the tenant module.
package workspaces

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateWorkspace command.CreateWorkspaceHandler
}

// Queries read state.
type Queries struct {
	GetWorkspace query.GetWorkspaceHandler
}

// New wires the use cases to their ports.
func New(tx platform.Transactor, repo workspaces.Repository, ids platform.IDs, clock platform.Clock) Application {
	return Application{
		Commands: Commands{CreateWorkspace: command.NewCreateWorkspaceHandler(tx, repo, ids, clock)},
		Queries:  Queries{GetWorkspace: query.NewGetWorkspaceHandler(repo)},
	}
}
