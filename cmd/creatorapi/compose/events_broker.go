package compose

import (
	"context"

	wm "github.com/ThreeDotsLabs/watermill"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/watermill"
	"github.com/creatorapi/creatorapi/application/events"
)

// newBroker connects to NATS when CREATORAPI_EVENTS_BROKER is set (nil otherwise): the
// connection retries in the background, so the service starts, and commands work,
// while the broker is away.
func newBroker(lc fx.Lifecycle, cfg Config, parts watermill.Partitions, logger wm.LoggerAdapter) (*watermill.Broker, error) {
	if cfg.EventsBroker == "" {
		return nil, nil
	}
	b, err := watermill.NewBroker(watermill.DefaultJetStreamConfig(cfg.EventsBroker, cfg.EventsStream, int(parts), cfg.EventsRetention), logger)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.Hook{OnStop: func(context.Context) error { b.Close(); return nil }})
	return b, nil
}

// newJetStreamTransport is the broker's transport (nil without a broker).
func newJetStreamTransport(b *watermill.Broker, rc watermill.RouterConfig, logger wm.LoggerAdapter) *watermill.JetStreamTransport {
	if b == nil {
		return nil
	}
	return watermill.NewJetStreamTransport(b, rc, logger)
}

// newEventTransport carries events to the consumers: JetStream when a broker is set, the
// outbox itself otherwise.
func newEventTransport(js *watermill.JetStreamTransport, sql *watermill.SQLTransport) watermill.Transport {
	if js != nil {
		return js
	}
	return sql
}

// newPositions answers for the transport in use (analytics asOf, tests' waits).
func newPositions(db *sqldb.DB, parts watermill.Partitions, js *watermill.JetStreamTransport) *watermill.Positions {
	p := watermill.NewPositions(db, parts)
	if js != nil {
		p.UseBroker(js.CaughtUp)
	}
	return p
}

// runForwarder moves the outbox to JetStream on every instance, when a broker is set:
// the forwarder group's outbox position is one row that its batches lock, so the
// instances take turns and the stream keeps the outbox's order.
func runForwarder(lc fx.Lifecycle, b *watermill.Broker, sql *watermill.SQLTransport, logger wm.LoggerAdapter) error {
	if b == nil {
		return nil
	}
	var f *watermill.Forwarder
	lc.Append(fx.Hook{
		OnStart: func(ctx context.Context) error {
			in, err := sql.Subscribe(ctx, watermill.Part{Consumer: events.Consumer{Name: watermill.ForwarderGroup}, Part: 0, Parts: 1})
			if err != nil {
				return err
			}
			if f, err = watermill.NewForwarder(b, in.Subscriber, logger); err != nil {
				return err
			}
			return f.Start(ctx)
		},
		OnStop: func(ctx context.Context) error {
			if f == nil {
				return nil
			}
			return f.Stop(ctx)
		},
	})
	return nil
}
