package compose

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"time"

	wm "github.com/ThreeDotsLabs/watermill"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/watermill"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// retentionEvery is how often consumed outbox rows are pruned.
const retentionEvery = 10 * time.Minute

// Events provides the event stream's consumers side: the router over every consumer of
// the event_consumers group, the ledger of processed and parked events, and retention.
// Nothing runs until Workers is part of the app (serve, demo and component tests).
func Events() fx.Option {
	return fx.Module("events",
		fx.Provide(
			func(db *sqldb.DB, c platform.Clock) *watermill.Ledger { return watermill.NewLedger(db, c) },
			func(db *sqldb.DB) watermill.RouterConfig { return watermill.DefaultRouterConfig(db.Dialect) },
			func(db *sqldb.DB, cfg Config) watermill.Partitions {
				return watermill.Partitions(cfg.EventPartitions(db.Dialect))
			},
			newPositions,
			// The outbox is the default transport; CREATORAPI_EVENTS_BROKER puts JetStream
			// in its place (events_broker.go), fed from the outbox by the forwarder.
			watermill.NewSQLTransport,
			newBroker,
			newJetStreamTransport,
			newEventTransport,
			newEventRouter,
			func(db *sqldb.DB, c platform.Clock, cfg Config, parts watermill.Partitions) *watermill.Retention {
				return watermill.NewRetention(db, c, cfg.EventsRetention, parts)
			},
		),
		// Inline consumers run in the publishing transaction, in every app that publishes
		// (the CLI's too), not only where the router runs.
		fx.Invoke(func(o *watermill.Outbox, p consumersParams) { o.RunInline(inline(p.Consumers)) }),
	)
}

type consumersParams struct {
	fx.In
	Consumers []events.Consumer `group:"event_consumers"`
}

// inline picks the consumers that run in the publishing transaction; the router runs
// the others.
func inline(cs []events.Consumer) []events.Consumer {
	var out []events.Consumer
	for _, c := range cs {
		if c.Inline {
			out = append(out, c)
		}
	}
	return out
}

type routerParams struct {
	fx.In
	DB         *sqldb.DB
	Ledger     *watermill.Ledger
	Wakeup     *watermill.Wakeup
	Transport  watermill.Transport
	Partitions watermill.Partitions
	Config     watermill.RouterConfig
	Logger     wm.LoggerAdapter
	Consumers  []events.Consumer `group:"event_consumers"`
}

// newEventRouter runs the consumers the ports provided.
func newEventRouter(p routerParams) (*watermill.Router, error) {
	groups := slices.DeleteFunc(slices.Clone(p.Consumers), func(c events.Consumer) bool { return c.Inline })
	return watermill.NewRouter(p.DB, p.Ledger, p.Transport, groups, p.Partitions, p.Config, p.Logger, instanceName(p.Wakeup))
}

// Workers runs the background side: the event router (draining on stop), the
// PostgreSQL LISTEN connection that wakes it when other instances commit, retention, and
// the webhook dispatcher, notifier and pruning. One-shot CLI commands start none of them.
func Workers() fx.Option {
	return fx.Options(
		fx.Invoke(warnAboutMaintenance),
		// Before the router, so that on stop the router drains first: on SQLite the
		// dispatcher's last run needs the single writer a draining consumer may hold.
		fx.Invoke(runWebhookWorkers),
		fx.Invoke(pruneSignIns),
		fx.Invoke(sendSignInLinks),
		fx.Invoke(watchMasterKey),
		fx.Invoke(retireInlineGroups),
		fx.Invoke(func(lc fx.Lifecycle, cfg Config, db *sqldb.DB, r *watermill.Router, w *watermill.Wakeup, ret *watermill.Retention, wl wm.LoggerAdapter, logger *slog.Logger) {
			if db.Dialect == sqldb.Postgres {
				l := watermill.NewListener(db.Writer.DB, w, wl)
				lc.Append(fx.Hook{OnStart: l.Start, OnStop: l.Stop})
			}
			// Retention first, so that it stops after the router: on SQLite a retention run
			// waiting for the writer must not hold up the router's drain.
			runEvery(lc, retentionEvery, func(ctx context.Context) {
				if n, err := ret.Run(ctx); err != nil {
					logger.Warn("events retention", "error", err)
				} else if n > 0 {
					logger.Info("events retention", "deleted", n)
				}
			})
			lc.Append(fx.Hook{OnStart: r.Start, OnStop: r.Stop})
		}),
		fx.Invoke(runForwarder),
	)
}

// retireInlineGroups applies, before the router starts, what the consumer group of an
// inline consumer left unconsumed when an upgrade made it inline (the webhook fan-out),
// and forgets the group (Ledger.Retire).
func retireInlineGroups(lc fx.Lifecycle, l *watermill.Ledger, p consumersParams, logger *slog.Logger) {
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error {
		for _, c := range inline(p.Consumers) {
			n, err := l.Retire(ctx, c)
			if err != nil {
				return err
			}
			if n > 0 {
				logger.Info("events: retired the consumer group of an inline consumer", "consumer", c.Name, "applied", n)
			}
		}
		return nil
	}})
}

// instanceName names this process in the lease table: host and pid for operators, and
// the wakeup's random id so that a restarted process with a recycled pid differs.
func instanceName(w *watermill.Wakeup) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), w.Instance())
}
