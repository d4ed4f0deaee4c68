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
	CreateWorkspace platform.Handler[command.CreateWorkspace, query.Workspace]
}

// Queries read state.
type Queries struct {
	GetWorkspace platform.Handler[string, query.Workspace] // by workspace id
}

// New wires the use cases to their ports, decorated in the one handler shape.
func New(tx platform.Transactor, repo workspaces.Repository, ids platform.IDs, clock platform.Clock, obs platform.Observer) Application {
	return Application{
		Commands: Commands{CreateWorkspace: platform.Command("create workspace", tx, obs, command.NewCreateWorkspaceHandler(repo, ids, clock).Handle)},
		Queries:  Queries{GetWorkspace: platform.Query("get workspace", obs, query.NewGetWorkspaceHandler(repo).Handle)},
	}
}
