package compose

import (
	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"go.uber.org/fx"

	sqlcertificates "github.com/creatorapi/creatorapi/adapters/sql/certificates"
	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Certificates wires course certificates. The store is provided as the module's port
// (fx.As), so a test swaps it with one fx.Replace (tests/testenv: MemoryCertificates);
// completions come from the enrollments module's published query
// (adapters/modulelinks).
func Certificates() fx.Option {
	return fx.Module("certificates",
		fx.Provide(
			fx.Annotate(sqlcertificates.NewRepository, fx.As(new(command.Store))),
			func(kit platform.Kit, repo command.Store, ws platform.WorkspaceDirectory, st modulelinks.StudentDirectory,
				ens enrollments.Application) certificates.Application {
				return certificates.New(command.Deps{Kit: kit, Repo: repo, Workspaces: ws, Students: st,
					Completions: modulelinks.CertificateCompletions{App: ens}})
			},
			operatorRoutes(operator.CertificateRoutes),
		),
	)
}
