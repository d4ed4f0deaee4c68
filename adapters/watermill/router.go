package watermill

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	wm "github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// RouterConfig tunes delivery; DefaultRouterConfig gives the production values.
type RouterConfig struct {
	// BatchSize is how many events one subscriber transaction carries. On SQLite that
	// transaction holds the only writer connection, so API writes wait for the batch.
	BatchSize int
	// PollInterval is the safety poll: how long an idle subscriber sleeps when nothing wakes it.
	PollInterval time.Duration
	// Burst are the re-polls after a wakeup or a batch (PostgreSQL: an event committed
	// behind an older open transaction becomes visible only when that one ends).
	Burst []time.Duration
	// AckDeadline bounds one event's handling (the subscriber then gives up on it).
	AckDeadline time.Duration
	// Attempts is how many times a failing event is tried before it is parked;
	// Backoff the first retry delay, doubled at each retry.
	Attempts int
	Backoff  time.Duration
	// CloseTimeout bounds the drain on stop.
	CloseTimeout time.Duration
}

// DefaultRouterConfig returns the settings of the dialect.
func DefaultRouterConfig(d sqldb.Dialect) RouterConfig {
	cfg := RouterConfig{
		BatchSize:    50,
		PollInterval: time.Second,
		Burst:        []time.Duration{2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond},
		AckDeadline:  30 * time.Second,
		Attempts:     4,
		Backoff:      10 * time.Millisecond,
		CloseTimeout: 20 * time.Second,
	}
	if d == sqldb.SQLite {
		// Small batches keep the writer free for the API; commits are serialized, so
		// a woken subscriber sees the event at once and needs no re-polls.
		cfg.BatchSize, cfg.Burst = 10, nil
	}
	return cfg
}

// Router runs one watermill-sql subscriber per consumer (consumer group = its name)
// on the single topic, under a watermill message.Router.
type Router struct {
	db        *sqldb.DB
	ledger    *Ledger
	wake      *Wakeup
	consumers []events.Consumer
	cfg       RouterConfig
	logger    wm.LoggerAdapter
	stopping  atomic.Bool

	router  *message.Router
	subs    []*drainingSubscriber
	stop    chan struct{}
	done    chan error
	cancels []func()
}

// NewRouter checks the consumers and builds a router; Start runs it.
func NewRouter(db *sqldb.DB, ledger *Ledger, wake *Wakeup, consumers []events.Consumer, cfg RouterConfig, logger wm.LoggerAdapter) (*Router, error) {
	seen := map[string]bool{}
	for _, c := range consumers {
		if c.Name == "" || c.Handle == nil {
			return nil, fmt.Errorf("events router: a consumer needs a name and a handler (got %q)", c.Name)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("events router: two consumers are named %q", c.Name)
		}
		seen[c.Name] = true
	}
	return &Router{db: db, ledger: ledger, wake: wake, consumers: consumers, cfg: cfg, logger: logger}, nil
}

// Consumers returns the consumers the router runs.
func (r *Router) Consumers() []events.Consumer { return r.consumers }

// Start subscribes every consumer and returns once all handlers run.
func (r *Router) Start(ctx context.Context) error {
	if len(r.consumers) == 0 {
		return nil
	}
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: r.cfg.CloseTimeout}, stopLogger{LoggerAdapter: r.logger, stopping: &r.stopping})
	if err != nil {
		return fmt.Errorf("events router: %w", err)
	}
	r.router, r.stop, r.done = router, make(chan struct{}), make(chan error, 1)
	for _, c := range r.consumers {
		sub, hooks, err := r.subscriber(c.Name)
		if err != nil {
			r.release()
			return err
		}
		r.subs = append(r.subs, sub)
		router.AddNoPublisherHandler(c.Name, Topic, sub, r.handler(c, sub, hooks))
	}
	go func() { r.done <- router.Run(context.Background()) }()
	select {
	case <-router.Running():
		return nil
	case err := <-r.done:
		r.release()
		return fmt.Errorf("events router: %w", err)
	case <-ctx.Done():
		_ = router.Close()
		r.release()
		return fmt.Errorf("events router start: %w", ctx.Err())
	}
}

// Stop lets each in-flight event finish, commits what was acknowledged, and stops.
func (r *Router) Stop(ctx context.Context) error {
	if r.router == nil {
		return nil
	}
	r.stopping.Store(true)
	close(r.stop) // wakes idle subscribers so that they notice the close at once
	defer r.release()
	closed := make(chan error, 1)
	go func() {
		// Drain every subscriber first: the message router closes a subscriber only when
		// it happens to see its close signal before its own cancellation, and the
		// subscriptions are detached from that cancellation (see drainingSubscriber).
		var wg sync.WaitGroup
		for _, sub := range r.subs {
			wg.Add(1)
			go func() { defer wg.Done(); _ = sub.Close() }()
		}
		wg.Wait()
		closed <- r.router.Close()
	}()
	select {
	case err := <-closed:
		if err != nil {
			return fmt.Errorf("events router stop: %w", err)
		}
		<-r.done
		return nil
	case <-ctx.Done():
		return fmt.Errorf("events router stop: %w", ctx.Err())
	}
}

func (r *Router) release() {
	for _, cancel := range r.cancels {
		cancel()
	}
	r.cancels = nil
}

// subscriber builds group's subscriber, and the hooks its gate runs after each batch commits.
func (r *Router) subscriber(group string) (*drainingSubscriber, *sqldb.CommitHooks, error) {
	signals, cancel := r.wake.Subscribe()
	r.cancels = append(r.cancels, cancel)
	g := newGate(r.db.Writer.DB, signals, r.stop, r.cfg.PollInterval, time.Second, r.cfg.Burst, r.cfg.BatchSize, r.pendingCheck(group))
	deadline := r.cfg.AckDeadline
	sub, err := wsql.NewSubscriber(g, wsql.SubscriberConfig{
		ConsumerGroup:  group,
		AckDeadline:    &deadline,
		PollInterval:   r.cfg.PollInterval,
		ResendInterval: 20 * time.Millisecond, // a Nack happens only while stopping: resend (or quit) soon
		RetryInterval:  time.Second,
		BackoffManager: g,
		SchemaAdapter:  countingSchema{SchemaAdapter: r.schema(), rows: &g.rows},
		OffsetsAdapter: OffsetsFor(r.db.Dialect),
		// Topic tables come from migrations: they cannot be created inside a transaction.
		InitializeSchema: false,
	}, r.logger)
	if err != nil {
		return nil, nil, fmt.Errorf("events subscriber %s: %w", group, err)
	}
	return &drainingSubscriber{Subscriber: sub}, g.hooks, nil
}

// pendingCheck tells a gate whether events lie beyond group's position (PostgreSQL only:
// SQLite needs no re-polls). One indexed read instead of a burst of empty polls.
func (r *Router) pendingCheck(group string) func(context.Context) (bool, error) {
	if r.db.Dialect != sqldb.Postgres || len(r.cfg.Burst) == 0 {
		return nil
	}
	positions := NewPositions(r.db)
	return func(ctx context.Context) (bool, error) {
		caughtUp, err := positions.CaughtUp(ctx, group)
		return !caughtUp, err
	}
}

func (r *Router) schema() wsql.SchemaAdapter {
	if r.db.Dialect == sqldb.Postgres {
		return postgresSchema{wsql.DefaultPostgreSQLSchema{SubscribeBatchSize: r.cfg.BatchSize}}
	}
	return SQLiteSchema{BatchSize: r.cfg.BatchSize}
}

// errStopping refuses an event while draining; it wraps context.Canceled so that the
// router does not log it as a failure. The event was not applied and will come again.
var errStopping = fmt.Errorf("events router stopping: %w", context.Canceled)

func (r *Router) handler(c events.Consumer, sub *drainingSubscriber, hooks *sqldb.CommitHooks) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		if !sub.enter() {
			return errStopping
		}
		defer sub.leave()
		tx, ok := wsql.TxFromContext(msg.Context())
		if !ok {
			return errors.New("events router: message without the subscriber's transaction")
		}
		// sqldb.AfterCommit inside Handle runs once the batch has committed (see gate).
		return r.deliver(hooks.Context(r.db.WithTx(msg.Context(), tx)), c, msg)
	}
}

// drainingSubscriber closes only once the event being handled is done. The message
// router closes subscribers while handlers still run, and watermill-sql would then
// commit the batch transaction under the handler's feet.
type drainingSubscriber struct {
	*wsql.Subscriber
	mu        sync.Mutex
	draining  bool
	inflight  sync.WaitGroup
	closeOnce sync.Once
	closeErr  error
}

// Subscribe detaches the subscription from ctx: the message router cancels its context
// as soon as it starts closing, which would fail the batch's ack and roll back what
// was already applied. Close alone ends the subscription, after the drain.
func (d *drainingSubscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	return d.Subscriber.Subscribe(context.WithoutCancel(ctx), topic)
}

func (d *drainingSubscriber) enter() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.draining {
		return false
	}
	d.inflight.Add(1)
	return true
}

func (d *drainingSubscriber) leave() { d.inflight.Done() }

// Close refuses new events, waits for the current one, then closes the subscriber.
// Both Router.Stop and the message router call it; the first call does the work.
func (d *drainingSubscriber) Close() error {
	d.closeOnce.Do(func() {
		d.mu.Lock()
		d.draining = true
		d.mu.Unlock()
		d.inflight.Wait()
		d.closeErr = d.Subscriber.Close()
	})
	return d.closeErr
}
