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
			func(tx platform.Transactor, repo *sqlstore.Courses, rm *sqlstore.CourseReads, ws *sqlstore.Workspaces,
				pub platform.Publisher, i platform.IDs, c platform.Clock, obs platform.Observer) courses.Application {
				return courses.New(command.Deps{Tx: tx, Repo: repo, ReadModel: rm, Workspaces: ws, Publisher: pub, IDs: i, Clock: c, Observer: obs})
			},
			apiEndpoints(v1.CourseEndpoints),
			operatorRoutes(operator.CourseRoutes),
		),
	)
}
