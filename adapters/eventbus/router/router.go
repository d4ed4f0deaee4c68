package router

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/pubsub/gochannel"
	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/drain"
	"github.com/creatorapi/creatorapi/adapters/eventbus/lease"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Config tunes delivery; DefaultConfig gives the production values.
type Config struct {
	// BatchSize is how many events one subscriber transaction carries. On SQLite that
	// transaction holds the only writer connection, so API writes wait for the batch.
	BatchSize int
	// PollInterval is the safety poll: how long an idle subscriber sleeps when nothing wakes it.
	PollInterval time.Duration
	// On PostgreSQL a subscriber that found nothing beyond its position asks that
	// question again (one indexed read) instead of polling, and polls only on a yes.
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
	// LeaseTTL is how long a (consumer, partition) lease lasts unless renewed: a dead
	// instance's partitions are taken over about this long after its last heartbeat.
	// Heartbeat is how often an instance renews its leases and rebalances.
	LeaseTTL, Heartbeat time.Duration
}

// DefaultConfig returns the settings of the dialect.
func DefaultConfig(d sqldb.Dialect) Config {
	cfg := Config{
		BatchSize:    50,
		PollInterval: time.Second,
		Burst:        []time.Duration{2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond},
		AckDeadline:  30 * time.Second,
		Attempts:     4,
		Backoff:      10 * time.Millisecond,
		CloseTimeout: 20 * time.Second,
		LeaseTTL:     5 * time.Second,
		Heartbeat:    time.Second,
	}
	if d == sqldb.SQLite {
		// Small batches keep the writer free for the API; commits are serialized, so
		// a woken subscriber sees the event at once and needs no re-polls.
		cfg.BatchSize, cfg.Burst = 10, nil
	}
	return cfg
}

// Router runs the consumers: for each (consumer, partition) pair this instance holds a
// lease on (leases.go), one handler under a watermill message.Router, fed by the
// Transport's subscriber for that part.
type Router struct {
	db        *sqldb.DB
	ledger    *Ledger
	transport eventbus.Transport
	leases    *lease.Store
	consumers []events.Consumer
	parts     int
	cfg       Config
	logger    watermill.LoggerAdapter
	instance  string
	stopping  atomic.Bool
	tracer    trace.Tracer // nil: the trace context is carried, no span recorded

	router   *message.Router
	done     chan error
	mu       sync.Mutex // guards running
	running  map[lease.Key]*runningPart
	loopStop chan struct{}
	loopDone chan struct{}
	renewed  time.Time // last successful heartbeat (the loop's goroutine only)
	ticks    int
}

// runningPart is a part this instance consumes.
type runningPart struct {
	part    eventbus.Part
	sub     *drain.Subscriber
	handler *message.Handler
}

// New checks the consumers and builds a router; Start runs it. instance names this
// process in the lease table; parts is the partition count this instance asks for.
func New(db *sqldb.DB, ledger *Ledger, transport eventbus.Transport, consumers []events.Consumer, parts eventbus.Partitions, cfg Config, logger watermill.LoggerAdapter, instance string) (*Router, error) {
	seen := map[string]bool{}
	names := make([]string, 0, len(consumers))
	for _, c := range consumers {
		if c.Name == "" || c.Handle == nil {
			return nil, fmt.Errorf("events router: a consumer needs a name and a handler (got %q)", c.Name)
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("events router: two consumers are named %q", c.Name)
		}
		seen[c.Name] = true
		names = append(names, c.Name)
	}
	return &Router{db: db, ledger: ledger, transport: transport, leases: lease.NewStore(db, names),
		consumers: consumers, parts: max(int(parts), 1), cfg: cfg, logger: logger, instance: instance,
		running: map[lease.Key]*runningPart{}}, nil
}

// Consumers returns the consumers the router runs.
func (r *Router) Consumers() []events.Consumer { return r.consumers }

// Instance names this process in event_instances and event_leases.
func (r *Router) Instance() string { return r.instance }

// Running is how many (consumer, partition) pairs this instance runs now.
func (r *Router) Running() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.running)
}

// Start runs the message router, takes this instance's share of the (consumer,
// partition) leases and subscribes them, then keeps the leases (heartbeat, takeover,
// rebalance) until Stop.
func (r *Router) Start(ctx context.Context) error {
	if len(r.consumers) == 0 {
		return nil
	}
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: r.cfg.CloseTimeout}, stopLogger{LoggerAdapter: r.logger, stopping: &r.stopping})
	if err != nil {
		return fmt.Errorf("events router: %w", err)
	}
	// The message router closes itself once no handler is left; an instance may hold no
	// lease for a while (more instances than pairs, a count change), so one idle handler stays.
	idle := gochannel.NewGoChannel(gochannel.Config{}, r.logger)
	router.AddConsumerHandler("idle", "idle", idle, func(*message.Message) error { return nil })
	r.router, r.done = router, make(chan error, 1)
	go func() { r.done <- router.Run(context.Background()) }()
	select {
	case <-router.Running():
	case err := <-r.done:
		return fmt.Errorf("events router: %w", err)
	case <-ctx.Done():
		_ = router.Close()
		return fmt.Errorf("events router start: %w", ctx.Err())
	}
	if err := r.adopt(ctx, r.parts, true); err != nil {
		_ = router.Close()
		return err
	}
	r.tick(ctx) // the first share is claimed and running when Start returns
	r.loopStop, r.loopDone = make(chan struct{}), make(chan struct{})
	go r.loop()
	return nil
}

// Stop lets each in-flight event finish, commits what was acknowledged, gives the leases
// back (other instances take them over at their next heartbeat) and stops.
func (r *Router) Stop(ctx context.Context) error {
	if r.router == nil {
		return nil
	}
	r.stopping.Store(true)
	if r.loopStop != nil {
		close(r.loopStop)
		<-r.loopDone
	}
	closed := make(chan error, 1)
	go func() {
		r.stopParts(r.runningKeys(), false)
		if err := r.leases.LeaveAll(context.WithoutCancel(ctx), r.instance, time.Now()); err != nil {
			r.logger.Error("events router: give leases back", err, nil)
		}
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

// startPart subscribes k and runs its handler.
func (r *Router) startPart(ctx context.Context, k lease.Key) error {
	c, ok := r.consumer(k.Consumer)
	if !ok {
		return fmt.Errorf("events router: no consumer %q", k.Consumer)
	}
	p := eventbus.Part{Consumer: c, Part: k.Part, Parts: k.Parts}
	sub, err := r.transport.Subscribe(ctx, p)
	if err != nil {
		return err
	}
	ds := &drain.Subscriber{Subscriber: sub.Subscriber}
	h, err := r.addHandler(p, sub.Topic, ds, r.handler(c, ds, sub.InTx))
	if err != nil {
		_ = ds.Close()
		return err
	}
	if err := r.router.RunHandlers(context.Background()); err != nil {
		_ = ds.Close()
		// The handler stays registered, unstarted (watermill has no way to remove it), and
		// would make every later start of p a duplicate: run it on the closed subscriber,
		// which stops it at once, so that the router forgets it and p can start again.
		_ = r.router.RunHandlers(context.Background())
		return fmt.Errorf("events router: run %s: %w", p, err)
	}
	r.mu.Lock()
	r.running[k] = &runningPart{part: p, sub: ds, handler: h}
	r.mu.Unlock()
	return nil
}

// addHandler adds p's handler to the message router, which panics on a duplicate name:
// the handler of a previous run of p that did not stop within CloseTimeout is still there.
func (r *Router) addHandler(p eventbus.Part, topic string, sub message.Subscriber, fn message.NoPublishHandlerFunc) (h *message.Handler, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("events router: %s still runs: %v", p, v)
		}
	}()
	return r.router.AddConsumerHandler(p.Group(), topic, sub, fn), nil
}

// stopParts drains the given parts at once (each finishes its event in flight and
// commits its acknowledged prefix), then, when release is set, frees their leases.
func (r *Router) stopParts(keys []lease.Key, release bool) {
	var wg sync.WaitGroup
	for _, k := range keys {
		r.mu.Lock()
		rp := r.running[k]
		delete(r.running, k)
		r.mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if rp != nil {
				_ = rp.sub.Close()
				rp.handler.Stop()
				select {
				case <-rp.handler.Stopped():
				case <-time.After(r.cfg.CloseTimeout):
					r.logger.Error("events router: part did not stop", nil, watermill.LogFields{"part": rp.part.String()})
				}
			}
			if release {
				if err := r.leases.Release(context.Background(), r.instance, k, time.Now()); err != nil {
					r.logger.Error("events router: release", err, nil)
				}
			}
		}()
	}
	wg.Wait()
}

func (r *Router) runningKeys() []lease.Key {
	r.mu.Lock()
	defer r.mu.Unlock()
	keys := make([]lease.Key, 0, len(r.running))
	for k := range r.running {
		keys = append(keys, k)
	}
	return keys
}

func (r *Router) consumer(name string) (events.Consumer, bool) {
	for _, c := range r.consumers {
		if c.Name == name {
			return c, true
		}
	}
	return events.Consumer{}, false
}

func (r *Router) handler(c events.Consumer, sub *drain.Subscriber, inTx func(*message.Message) (context.Context, bool)) message.NoPublishHandlerFunc {
	return func(msg *message.Message) error {
		if !sub.Enter() {
			return drain.ErrStopping
		}
		defer sub.Leave()
		t := msg.Metadata.Get(eventbus.MetaType)
		if inTx == nil {
			// A transport without a transaction (a broker): one transaction per message, with
			// the ledger marker; the message is acked only after it committed.
			if t != "" && !c.Handles(events.Type(t)) {
				return nil // not this consumer's: no transaction at all
			}
			ctx, end := r.traced(msg.Context(), c, msg)
			err := r.db.WithinTx(ctx, func(ctx context.Context) error {
				if err := lockConsumer(ctx, r.db, c.Name, false); err != nil {
					return err
				}
				return r.deliver(batchtx.WithSavepoint(ctx, &batchtx.Savepoint{}), c, msg)
			})
			end(err)
			return err
		}
		ctx, ok := inTx(msg)
		if !ok {
			return errors.New("events router: message without the subscriber's transaction")
		}
		abort := batchtx.AbortFrom(ctx)
		if abort != nil && abort.Err != nil {
			return nil // the batch rolls back (batchtx.Abort): the event comes again with it
		}
		end := func(error) {}
		if t == "" || c.Handles(events.Type(t)) { // another consumer's event gets no span
			ctx, end = r.traced(ctx, c, msg)
		}
		err := r.deliver(ctx, c, msg)
		end(err)
		if err != nil && abort != nil && ctx.Err() == nil {
			// The transaction itself failed: retrying in it would fail alike until the ack
			// deadline. Roll the batch back and poll it again in a new one.
			fields := watermill.LogFields{"consumer": c.Name, "event_id": msg.UUID}
			if sqldb.IsSerializationFailure(err) {
				r.logger.Info("events router: conflict, batch rolled back to retry in a new transaction", fields.Add(watermill.LogFields{"error": err.Error()}))
			} else {
				r.logger.Error("events router: batch rolled back to retry in a new transaction", err, fields)
			}
			abort.Err = err
			return nil
		}
		return err
	}
}
