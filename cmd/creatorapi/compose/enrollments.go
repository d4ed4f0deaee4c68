package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Enrollments wires enrollments and lesson progress. The students store is the
// student directory and a small query over the course tables is the catalogue.
func Enrollments() fx.Option {
	return fx.Module("enrollments",
		fx.Provide(
			sqlstore.NewEnrollments,
			sqlstore.NewEnrollmentCatalog,
			sqlstore.NewProgress,
			func(tx platform.Transactor, repo *sqlstore.Enrollments, progress *sqlstore.Progress, st *sqlstore.Students,
				catalog *sqlstore.EnrollmentCatalog, pub platform.Publisher, i platform.IDs, c platform.Clock, obs platform.Observer) enrollments.Application {
				return enrollments.New(command.Deps{
					Tx: tx, Repo: repo, Progress: progress, Students: st, Catalog: catalog, Publisher: pub, IDs: i, Clock: c, Observer: obs,
				}, repo)
			},
			apiEndpoints(v1.EnrollmentEndpoints),
			operatorRoutes(operator.EnrollmentRoutes),
		),
	)
}
