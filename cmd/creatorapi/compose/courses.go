package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Courses wires the course catalogue.
func Courses() fx.Option {
	return fx.Module("courses",
		fx.Provide(
			sqlstore.NewCourses,
			sqlstore.NewCourseReads,
			func(kit platform.Kit, repo *sqlstore.Courses, rm *sqlstore.CourseReads, ws *sqlstore.Workspaces) courses.Application {
				return courses.New(command.Deps{Kit: kit, Repo: repo, ReadModel: rm, Workspaces: ws})
			},
			apiEndpoints(v1.CourseEndpoints),
			operatorRoutes(operator.CourseRoutes),
		),
	)
}
