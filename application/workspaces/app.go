// Package workspaces is the application service of the tenant module.
package workspaces

import (
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateWorkspace platform.Handler[command.CreateWorkspace, query.Workspace]
	OpenSandbox     platform.Handler[command.OpenSandbox, command.OpenedSandbox]
}

// Queries read state.
type Queries struct {
	GetWorkspace platform.Handler[string, query.Workspace] // by workspace id
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping).
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			CreateWorkspace: platform.Command("create workspace", d.Tx, d.Observer, d.CreateWorkspace),
			OpenSandbox:     platform.Command("open sandbox", d.Tx, d.Observer, d.OpenSandbox),
		},
		Queries: Queries{GetWorkspace: platform.Query("get workspace", d.Observer, query.Reads{Repo: d.Repo}.GetWorkspace)},
	}
}
