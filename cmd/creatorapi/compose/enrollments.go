package compose

import (
	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"go.uber.org/fx"

	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Enrollments wires enrollments and lesson progress. Its adapters are provided as the
// module's ports (fx.As), so a test swaps any of them with one fx.Replace (tests/testenv:
// MemoryEnrollments). The students module's Directory is the student directory
// (adapters/modulelinks); the courses module's published queries are the catalogue.
// Other modules read enrollments through the Application's published queries
// (adapters/modulelinks).
func Enrollments() fx.Option {
	return fx.Module("enrollments",
		fx.Provide(
			fx.Annotate(sqlenrollments.NewRepository, fx.As(new(domainenrollments.Repository))),
			fx.Annotate(sqlenrollments.NewProgress, fx.As(new(domainenrollments.ProgressRepository))),
			fx.Annotate(sqlenrollments.NewReads, fx.As(new(query.ReadModel)), fx.As(new(query.Published))),
			func(kit platform.Kit, repo domainenrollments.Repository, progress domainenrollments.ProgressRepository,
				rm query.ReadModel, published query.Published, st modulelinks.StudentDirectory, crs courses.Application) enrollments.Application {
				return enrollments.New(command.Deps{Kit: kit, Repo: repo, Progress: progress, Students: st,
					Catalog: modulelinks.EnrollmentCatalog{App: crs}}, rm, published)
			},
			apiEndpoints(v1.EnrollmentEndpoints),
			apiEndpoints(v1.EnrollmentRevokeEndpoints),
			operatorRoutes(operator.EnrollmentRoutes),
		),
	)
}
