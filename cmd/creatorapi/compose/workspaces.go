package compose

import (
	"go.uber.org/fx"

	sqlworkspaces "github.com/creatorapi/creatorapi/adapters/sql/workspaces"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces"
	"github.com/creatorapi/creatorapi/application/workspaces/command"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	domainworkspaces "github.com/creatorapi/creatorapi/domain/workspaces"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Workspaces wires the tenant module. Its store is provided as the module's two ports
// (fx.As); other modules read workspaces only through query.Directory, adapted to their
// own ports in adapters/modulelinks.
func Workspaces() fx.Option {
	return fx.Module("workspaces",
		fx.Provide(
			fx.Annotate(sqlworkspaces.NewStore, fx.As(new(domainworkspaces.Repository)), fx.As(new(query.Directory))),
			// Workspaces are never deleted: a yes is remembered (sqlworkspaces.Known).
			func(d query.Directory) platform.WorkspaceDirectory { return sqlworkspaces.Remember(d) },
			func(kit platform.Kit, repo domainworkspaces.Repository, seeder command.SandboxSeeder) workspaces.Application {
				return workspaces.New(command.Deps{Kit: kit, Repo: repo, Seeder: seeder})
			},
			operatorRoutes(operator.WorkspaceRoutes),
		),
	)
}
