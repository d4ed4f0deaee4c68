// Package keys is the application service of API keys: issuing, revoking and
// authenticating the bearer tokens of the public API.
package keys

import (
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	CreateKey command.CreateKeyHandler
	RevokeKey command.RevokeKeyHandler
}

// Queries read state.
type Queries struct {
	Authenticate query.AuthenticateHandler
	ListKeys     query.ListKeysHandler
	KeyPages     query.KeyPagesHandler
}

// Deps are the ports the module needs.
type Deps struct {
	Tx         platform.Transactor
	Repo       keys.Repository
	Pages      query.KeyPages
	Workspaces platform.WorkspaceDirectory
	Usage      query.UsageRecorder
	Audit      platform.AuditTrail
	IDs        platform.IDs
	Clock      platform.Clock
}

// New wires the use cases to their ports.
func New(d Deps) Application {
	return Application{
		Commands: Commands{
			CreateKey: command.NewCreateKeyHandler(d.Tx, d.Repo, d.Workspaces, d.Audit, d.IDs, d.Clock),
			RevokeKey: command.NewRevokeKeyHandler(d.Tx, d.Repo, d.Audit, d.Clock),
		},
		Queries: Queries{
			Authenticate: query.NewAuthenticateHandler(d.Repo, d.Usage, d.Clock),
			ListKeys:     query.NewListKeysHandler(d.Repo, d.Usage, d.Clock),
			KeyPages:     query.NewKeyPagesHandler(d.Pages, d.Usage, d.Clock),
		},
	}
}
