package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Certificates wires course certificates; completions come from the enrollments
// module's published query (enrollments_published.go).
func Certificates() fx.Option {
	return fx.Module("certificates",
		fx.Provide(
			sqlstore.NewCertificates,
			func(kit platform.Kit, repo *sqlstore.Certificates, ws platform.WorkspaceDirectory, st studentDirectory,
				ens enrollments.Application) certificates.Application {
				return certificates.New(command.Deps{Kit: kit, Repo: repo, Workspaces: ws, Students: st,
					Completions: certificateCompletions{app: ens}})
			},
			operatorRoutes(operator.CertificateRoutes),
		),
	)
}
