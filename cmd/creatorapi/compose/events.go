package compose

import (
	"fmt"
	"os"
	"slices"

	wm "github.com/ThreeDotsLabs/watermill"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/watermill"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Events provides the event stream's consumers side: the router over every consumer of
// the event_consumers group, the ledger of processed and parked events, and retention.
// Nothing runs until Workers is part of the app (workers.go).
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
			newForwarder,
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

// instanceName names this process in the lease table: host and pid for operators, and
// the wakeup's random id so that a restarted process with a recycled pid differs.
func instanceName(w *watermill.Wakeup) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), w.Instance())
}
