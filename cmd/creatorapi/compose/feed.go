package compose

import (
	"go.uber.org/fx"

	eventfeed "github.com/creatorapi/creatorapi/adapters/eventbus/feed"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/feed"
	"github.com/creatorapi/creatorapi/application/feed/query"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Feed wires the events feed: the outbox read per workspace (the events module's
// table, adapters/eventbus/feed), woken by the outbox's commit signals, and its public
// endpoints. The hangup ends its streams and long polls when the public listener stops.
func Feed() fx.Option {
	return fx.Module("feed",
		fx.Provide(
			web.NewHangup,
			func() *v1.EventWaits { return v1.NewEventWaits(v1.MaxEventWaitsPerKey, v1.MaxEventWaits) },
			func(db *sqldb.DB, w *wakeup.Wakeup, c platform.Clock, cfg Config, obs platform.Observer) feed.Application {
				return feed.New(query.Reads{Log: eventfeed.NewLog(db), Signals: eventfeed.Signals{Wake: w}, Clock: c, Retention: cfg.EventsRetention}, obs)
			},
			apiEndpoints(func(app feed.Application, cursors *web.Cursors, waits *v1.EventWaits, hangup *web.Hangup, k keys.Application) []v1.Endpoint {
				return v1.EventEndpoints(v1.EventFeed{App: app, Cursors: cursors, Waits: waits, Hangup: hangup, Auth: k.Queries.Authenticate})
			}),
		),
	)
}
