package compose

import (
	"go.uber.org/fx"

	sqlcourses "github.com/creatorapi/creatorapi/adapters/sql/courses"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Courses wires the course catalogue. Its adapters are provided as the module's ports
// (fx.As), so a test swaps any of them with one fx.Replace (tests/testenv: Memory).
// Other modules read courses through the Application's published queries
// (adapters/modulelinks), never through these ports or the course tables.
func Courses() fx.Option {
	return fx.Module("courses",
		fx.Provide(
			fx.Annotate(sqlcourses.NewRepository, fx.As(new(domaincourses.Repository))),
			fx.Annotate(sqlcourses.NewReads, fx.As(new(query.ReadModel))),
			fx.Annotate(sqlcourses.NewCatalog, fx.As(new(query.Catalog))),
			func(kit platform.Kit, repo domaincourses.Repository, rm query.ReadModel, catalog query.Catalog,
				ws platform.WorkspaceDirectory) courses.Application {
				return courses.New(command.Deps{Kit: kit, Repo: repo, ReadModel: rm, Catalog: catalog, Workspaces: ws})
			},
			apiEndpoints(v1.CourseEndpoints),
			operatorRoutes(operator.CourseRoutes),
		),
	)
}
