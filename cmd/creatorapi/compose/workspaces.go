package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Workspaces wires the tenant module.
func Workspaces() fx.Option {
	return fx.Module("workspaces",
		fx.Provide(
			sqlstore.NewWorkspaces,
			func(tx platform.Transactor, repo *sqlstore.Workspaces, i platform.IDs, c platform.Clock, obs platform.Observer) workspaces.Application {
				return workspaces.New(tx, repo, i, c, obs)
			},
			operatorRoutes(operator.WorkspaceRoutes),
		),
	)
}
