package compose

import (
	"context"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/ids"
	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo"
)

// Platform provides what every module shares: logger, database (migrated on start),
// transactor, clock, ids, the outbox and the master key.
func Platform() fx.Option {
	return fx.Module("platform",
		fx.Provide(
			func(cfg Config) *slog.Logger { return observe.NewLogger(cfg.LogLevel) },
			newTracing,
			newDatabase,
			func(db *sqldb.DB) platform.Transactor { return db },
			func() platform.Clock { return clock.System{} },
			func(c platform.Clock) platform.IDs { return ids.NewULIDs(c) },
			func(l *slog.Logger) watermill.LoggerAdapter { return watermill.NewSlogLogger(l) },
			sqlstore.NewMasterKeyStore,
			newKeyPolicy,
			newMasterKey,
			func(l *slog.Logger, r *prometheus.Registry, t *observe.Tracing) (platform.Observer, error) {
				u, err := observe.NewUseCases(l, r)
				if err != nil || t.Tracer == nil {
					return u, err
				}
				return observe.Many{observe.NewSpans(t.Tracer), u}, nil // the span first: the log line has its trace
			},
			func(tx platform.Transactor, pub platform.Publisher, i platform.IDs, c platform.Clock, obs platform.Observer) platform.Kit {
				return platform.Kit{Tx: tx, Publisher: pub, IDs: i, Clock: c, Observer: obs}
			},
			sqlstore.NewSettings,
			wakeup.New,
			func(lc fx.Lifecycle, db *sqldb.DB, i platform.IDs, c platform.Clock, l watermill.LoggerAdapter, w *wakeup.Wakeup, t *observe.Tracing) *outbox.Outbox {
				o := outbox.New(db, i, c, l).SignalCommits(w).TraceWith(t.Tracer)
				lc.Append(fx.StopHook(o.Drain)) // the last commits' NOTIFY, before the pool closes
				return o
			},
			func(o *outbox.Outbox) platform.Publisher { return o },
		),
	)
}

// newDatabase opens the database and applies migrations when the app starts.
func newDatabase(lc fx.Lifecycle, cfg Config, t *observe.Tracing) (*sqldb.DB, error) {
	db, err := sqldb.Open(context.Background(), cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	db.TraceWith(t.Tracer)
	lc.Append(fx.Hook{
		OnStart: db.Migrate,
		OnStop:  func(context.Context) error { return db.Close() },
	})
	return db, nil
}

// newTracing builds the tracer from the OTEL_* variables (off without an endpoint) and
// flushes its spans when the app stops.
func newTracing(lc fx.Lifecycle, cfg Config) (*observe.Tracing, error) {
	t, err := observe.Open(context.Background(), cfg.TraceExport, buildinfo.Read().Version)
	lc.Append(fx.Hook{OnStop: t.Shutdown}) // nil-safe: fx never starts an app whose constructor failed
	return t, err
}
