package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// LiveSessions wires live sessions and their recordings.
func LiveSessions() fx.Option {
	return fx.Module("livesessions",
		fx.Provide(
			sqlstore.NewLiveSessions,
			func(kit platform.Kit, repo *sqlstore.LiveSessions, ws platform.WorkspaceDirectory, crs courses.Application) livesessions.Application {
				return livesessions.New(command.Deps{
					Kit: kit, Sessions: repo, Recordings: repo.Recordings(), Courses: sessionCourses{app: crs}, Workspaces: ws,
				})
			},
			operatorRoutes(operator.LiveSessionRoutes),
			operatorRoutes(operator.RecordingRoutes),
		),
	)
}
