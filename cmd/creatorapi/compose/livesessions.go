package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
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
			func(tx platform.Transactor, repo *sqlstore.LiveSessions, ws *sqlstore.Workspaces,
				pub platform.Publisher, i platform.IDs, c platform.Clock, obs platform.Observer) livesessions.Application {
				return livesessions.New(command.Deps{
					Tx: tx, Sessions: repo, Recordings: repo.Recordings(), Courses: repo.Courses(), Workspaces: ws,
					Publisher: pub, IDs: i, Clock: c, Observer: obs,
				})
			},
			operatorRoutes(operator.LiveSessionRoutes),
			operatorRoutes(operator.RecordingRoutes),
		),
	)
}
