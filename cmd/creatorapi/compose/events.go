package compose

import (
	"fmt"
	"os"
	"slices"

	"github.com/ThreeDotsLabs/watermill"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/sqltransport"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Events provides the event stream's consumers side: the router over every consumer of
// the event_consumers group, the ledger of processed and parked events, and retention.
// Nothing runs until Workers is part of the app (workers.go).
func Events() fx.Option {
	return fx.Module("events",
		fx.Provide(
			func(db *sqldb.DB, c platform.Clock) *router.Ledger { return router.NewLedger(db, c) },
			func(db *sqldb.DB) router.Config { return router.DefaultConfig(db.Dialect) },
			func(db *sqldb.DB, cfg Config) eventbus.Partitions {
				return eventbus.Partitions(cfg.EventPartitions(db.Dialect == sqldb.Postgres))
			},
			newPositions,
			// The outbox is the default transport; CREATORAPI_EVENTS_BROKER puts JetStream
			// in its place (events_broker.go), fed from the outbox by the forwarder.
			sqltransport.New,
			newBroker,
			newJetStreamTransport,
			newEventTransport,
			newEventRouter,
			newForwarder,
			func(db *sqldb.DB, c platform.Clock, cfg Config, parts eventbus.Partitions) *outbox.Retention {
				return outbox.NewRetention(db, c, cfg.EventsRetention, parts)
			},
		),
		// Inline consumers run in the publishing transaction, in every app that publishes
		// (the CLI's too), not only where the router runs.
		fx.Invoke(func(o *outbox.Outbox, p consumersParams) {
			o.RunInline(slices.DeleteFunc(slices.Clone(p.Consumers), func(c events.Consumer) bool { return !c.Inline }))
		}),
	)
}

type consumersParams struct {
	fx.In
	Consumers []events.Consumer `group:"event_consumers"`
}

type routerParams struct {
	fx.In
	DB         *sqldb.DB
	Ledger     *router.Ledger
	Wakeup     *wakeup.Wakeup
	Transport  eventbus.Transport
	Partitions eventbus.Partitions
	Config     router.Config
	Logger     watermill.LoggerAdapter
	Consumers  []events.Consumer `group:"event_consumers"`
	Tracing    *observe.Tracing
}

// newEventRouter runs the consumers the ports provided.
func newEventRouter(p routerParams) (*router.Router, error) {
	groups := slices.DeleteFunc(slices.Clone(p.Consumers), func(c events.Consumer) bool { return c.Inline })
	r, err := router.New(p.DB, p.Ledger, p.Transport, groups, p.Partitions, p.Config, p.Logger, instanceName(p.Wakeup))
	if err != nil {
		return nil, err
	}
	return r.TraceWith(p.Tracing.Tracer), nil
}

// instanceName names this process in the lease table: host and pid for operators, and
// the wakeup's random id so that a restarted process with a recycled pid differs.
func instanceName(w *wakeup.Wakeup) string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), w.Instance())
}
