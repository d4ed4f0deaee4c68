package compose

import (
	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"go.uber.org/fx"

	sqllivesessions "github.com/creatorapi/creatorapi/adapters/sql/livesessions"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/livesessions"
	"github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/application/platform"
	domainlivesessions "github.com/creatorapi/creatorapi/domain/livesessions"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// LiveSessions wires live sessions and their recordings. Its adapters are provided as
// the module's ports (fx.As), so a test swaps them with one fx.Replace (tests/testenv:
// MemoryLiveSessions). Courses are checked through the courses module's published
// queries (adapters/modulelinks).
func LiveSessions() fx.Option {
	return fx.Module("livesessions",
		fx.Provide(
			fx.Annotate(sqllivesessions.NewRepository, fx.As(new(domainlivesessions.Repository))),
			fx.Annotate(sqllivesessions.NewRecordings, fx.As(new(domainlivesessions.Recordings))),
			func(kit platform.Kit, repo domainlivesessions.Repository, recordings domainlivesessions.Recordings,
				ws platform.WorkspaceDirectory, crs courses.Application) livesessions.Application {
				return livesessions.New(command.Deps{
					Kit: kit, Sessions: repo, Recordings: recordings, Courses: modulelinks.SessionCourses{App: crs}, Workspaces: ws,
				})
			},
			operatorRoutes(operator.LiveSessionRoutes),
			operatorRoutes(operator.RecordingRoutes),
		),
	)
}
