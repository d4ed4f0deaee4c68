package sqltransport

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Transport is the default Transport: each part is a watermill-sql subscriber polling
// the outbox for its partition (schema.Postgres, schema.SQLite), its position the
// watermill consumer group Part.Group(), its batch transaction the one the consumer
// applies in. A gate makes it sleep until a wakeup of its partition (gate.go).
type Transport struct {
	db     *sqldb.DB
	wake   *wakeup.Wakeup
	pos    *router.Positions
	cfg    router.Config
	logger watermill.LoggerAdapter
	checks *pendingBatch // the caught-up parts' safety checks, one statement a second
}

// New builds the SQL transport.
func New(db *sqldb.DB, wake *wakeup.Wakeup, pos *router.Positions, cfg router.Config, logger watermill.LoggerAdapter) *Transport {
	return &Transport{db: db, wake: wake, pos: pos, cfg: cfg, logger: logger, checks: &pendingBatch{pos: pos}}
}

// Subscribe builds part p's subscriber.
func (t *Transport) Subscribe(_ context.Context, p eventbus.Part) (eventbus.Subscription, error) {
	var takes func(events.Type) bool
	switch {
	case p.Consumer.Lazy:
		takes = func(events.Type) bool { return false } // every commit signals lazily
	case p.Consumer.Types != nil:
		takes = p.Consumer.Handles
	}
	signals, lazy, cancel := t.wake.SubscribeTypes(p.Holds, takes)
	stop := make(chan struct{})
	batch := t.cfg.BatchSize
	if p.Consumer.Lazy {
		batch = min(batch, lazyBatch)
	}
	g := newGate(t.db.Writer.DB, signals, stop, t.cfg.PollInterval, time.Second, t.cfg.Burst, batch, t.pendingCheck(p))
	g.lazy = lazy
	g.asyncCommit = t.db.Dialect == sqldb.Postgres
	if g.pending != nil {
		g.idleCheck = func(ctx context.Context) (bool, error) { return t.checks.behind(ctx, p) }
	}
	deadline := t.cfg.AckDeadline
	sub, err := wsql.NewSubscriber(g, wsql.SubscriberConfig{
		ConsumerGroup: p.Group(),
		AckDeadline:   &deadline,
		PollInterval:  t.cfg.PollInterval,
		// A Nack happens only while stopping or past the ack deadline (a failed transaction
		// aborts the batch instead: batchtx.Abort): resend (or quit) soon.
		ResendInterval: 20 * time.Millisecond,
		RetryInterval:  time.Second,
		BackoffManager: g,
		SchemaAdapter:  countingSchema{SchemaAdapter: t.schema(p, g), rows: &g.rows},
		OffsetsAdapter: flushingOffsets{OffsetsAdapter: schema.OffsetsFor(t.db.Dialect), flush: func() error {
			if err := g.hooks.Flush(t.db.WithTx(context.Background(), g.tx)); err != nil {
				t.logger.Error("events subscriber: deferred writes", err, watermill.LogFields{"part": p.String()})
				return err
			}
			return nil
		}, aborted: func() bool { return g.abort != nil && g.abort.Err != nil }},
		// Topic tables come from migrations: they cannot be created inside a transaction.
		InitializeSchema: false,
	}, t.logger)
	if err != nil {
		cancel()
		return eventbus.Subscription{}, fmt.Errorf("events subscriber %s: %w", p, err)
	}
	return eventbus.Subscription{
		Subscriber: &sqlSubscriber{Subscriber: sub, stop: stop, cancel: cancel},
		Topic:      eventbus.Topic,
		InTx: func(msg *message.Message) (context.Context, bool) {
			tx, ok := wsql.TxFromContext(msg.Context())
			if !ok {
				return nil, false
			}
			// sqldb.AfterCommit inside Handle runs once the batch has committed (see gate);
			// the router's savepoints are tracked per batch transaction.
			return batchtx.WithAbort(batchtx.WithSavepoint(g.hooks.Context(t.db.WithTx(msg.Context(), tx)), g.savepoint), g.abort), true
		},
	}, nil
}

// pendingCheck tells a gate whether events of p lie beyond its position (PostgreSQL only:
// SQLite needs no re-polls). One indexed read instead of a burst of empty polls.
func (t *Transport) pendingCheck(p eventbus.Part) func(context.Context) (bool, error) {
	if t.db.Dialect != sqldb.Postgres || len(t.cfg.Burst) == 0 {
		return nil
	}
	return func(ctx context.Context) (bool, error) {
		caughtUp, err := t.pos.PartCaughtUp(ctx, p.Consumer.Name, p.Part, p.Parts)
		return !caughtUp, err
	}
}

// lazyBatch bounds a lazy consumer's batch. Its poll finds a second's events at once, and
// a batch transaction holds a transaction id from its poll (FOR UPDATE) to its commit: on
// PostgreSQL every event committed meanwhile stays invisible to every other subscriber
// until then (pg_snapshot_xmin). 200 events in one transaction held the webhook fan-out
// back up to 40 ms (200/s: receipt p99 34 ms instead of 17); 20 bound that to a few.
const lazyBatch = 20

func (t *Transport) schema(p eventbus.Part, g *gate) wsql.SchemaAdapter {
	if t.db.Dialect == sqldb.Postgres {
		s := schema.Postgres{DefaultPostgreSQLSchema: wsql.DefaultPostgreSQLSchema{SubscribeBatchSize: g.batch}, Parts: p.Parts, Part: p.Part}
		if g.pending != nil {
			s.HeldBack = &g.heldBack
		}
		return s
	}
	return schema.SQLite{BatchSize: g.batch, Parts: p.Parts, Part: p.Part}
}

// sqlSubscriber wakes its gate when closed, so that an idle subscriber notices at once.
type sqlSubscriber struct {
	*wsql.Subscriber
	stop   chan struct{}
	cancel func()
	once   sync.Once
}

func (s *sqlSubscriber) Close() error {
	s.once.Do(func() { close(s.stop) })
	err := s.Subscriber.Close()
	s.cancel()
	return err
}
