package compose

import (
	"context"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/sqltransport"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// newBroker connects to NATS when CREATORAPI_EVENTS_BROKER is set (nil otherwise): the
// connection retries in the background, so the service starts, and commands work,
// while the broker is away.
func newBroker(lc fx.Lifecycle, cfg Config, parts eventbus.Partitions, logger watermill.LoggerAdapter) (*natstransport.Broker, error) {
	if cfg.EventsBroker == "" {
		return nil, nil
	}
	jc := natstransport.DefaultJetStreamConfig(cfg.EventsBroker, cfg.EventsStream, int(parts), cfg.EventsRetention)
	jc.Replicas = cfg.EventsReplicas
	b, err := natstransport.NewBroker(jc, logger)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.Hook{OnStop: func(context.Context) error { b.Close(); return nil }})
	return b, nil
}

// newJetStreamTransport is the broker's transport (nil without a broker), its counts on
// the operator's /metrics.
func newJetStreamTransport(b *natstransport.Broker, db *sqldb.DB, rc router.Config, logger *slog.Logger, registry *prometheus.Registry) (*natstransport.JetStreamTransport, error) {
	if b == nil {
		return nil, nil
	}
	t := natstransport.NewJetStreamTransport(b, db, rc, logger)
	return t, t.Register(registry)
}

// newEventTransport carries events to the consumers: JetStream when a broker is set, the
// outbox itself otherwise.
func newEventTransport(js *natstransport.JetStreamTransport, sql *sqltransport.Transport) eventbus.Transport {
	if js != nil {
		return js
	}
	return sql
}

// newPositions answers for the transport in use (analytics asOf, tests' waits).
func newPositions(db *sqldb.DB, parts eventbus.Partitions, js *natstransport.JetStreamTransport) *router.Positions {
	p := router.NewPositions(db, parts)
	if js != nil {
		p.UseBroker(js.PartCaughtUp)
	}
	return p
}

// newForwarder moves the outbox to JetStream when a broker is set (nil otherwise), on one
// instance at a time (the forwarder's lock): its outbox position is the consumer group
// jetstream-forwarder, read without partitions, so the stream keeps the outbox's order.
func newForwarder(b *natstransport.Broker, db *sqldb.DB, sql *sqltransport.Transport, logger watermill.LoggerAdapter) (*natstransport.Forwarder, error) {
	if b == nil {
		return nil, nil
	}
	input := func(ctx context.Context) (message.Subscriber, error) {
		sub, err := sql.Subscribe(ctx, eventbus.Part{Consumer: events.Consumer{Name: eventbus.ForwarderGroup}, Part: 0, Parts: 1})
		return sub.Subscriber, err
	}
	return natstransport.NewForwarder(b, db, input, logger)
}
