package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Enrollments wires enrollments and lesson progress. The students store is the
// student directory; the courses module's published queries are the catalogue.
func Enrollments() fx.Option {
	return fx.Module("enrollments",
		fx.Provide(
			sqlstore.NewEnrollments,
			sqlstore.NewProgress,
			func(kit platform.Kit, repo *sqlstore.Enrollments, progress *sqlstore.Progress, st *sqlstore.Students,
				crs courses.Application) enrollments.Application {
				return enrollments.New(command.Deps{Kit: kit, Repo: repo, Progress: progress, Students: st,
					Catalog: enrollmentCatalog{app: crs}}, repo)
			},
			apiEndpoints(v1.EnrollmentEndpoints),
			operatorRoutes(operator.EnrollmentRoutes),
		),
	)
}
