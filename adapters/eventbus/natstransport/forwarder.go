package natstransport

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmnats "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/nats"
	"github.com/ThreeDotsLabs/watermill/components/forwarder"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/drain"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Forwarder moves the outbox to JetStream with watermill's forwarder component. The
// outbox rows keep their format (the SQL transport, rebuild and retention read them), so
// they are not written as forwarder envelopes; instead the forwarder's input is the
// outbox subscription of ForwarderGroup, and a middleware puts each event in the
// forwarder's envelope on the fly, addressed to its partition's subject. The forwarder
// then publishes it with watermill-nats's JetStream publisher, which waits for
// JetStream's acknowledgement: the outbox position of the group commits only after every
// event before it was stored in the stream, in order. An event published again after a
// crash (stored, not yet recorded as forwarded) carries the same Nats-Msg-Id (the
// event id) and JetStream drops it within the stream's duplicate window; past that
// window the consumers' ledger skips it.
//
// One instance forwards at a time: the one holding a PostgreSQL advisory lock on a
// connection of its own (the others try again every second; a dead instance's connection
// closes, and with it the lock). Two forwarders would not break the order (the group's
// offsets row serializes their batches) but would fail each other's batches.
type Forwarder struct {
	broker *Broker
	db     *sqldb.DB
	input  func(ctx context.Context) (message.Subscriber, error)
	logger watermill.LoggerAdapter
	pub    *wmnats.Publisher
	stop   chan struct{}
	done   chan struct{}

	mu      sync.Mutex
	backoff time.Duration // the wait after the last failed publish; 0 after a success
}

// Backoff bounds of a failing publish (the broker is away): the outbox keeps the events.
const (
	forwardBackoffMin = 100 * time.Millisecond
	forwardBackoffMax = 5 * time.Second
)

// forwarderRetry is how often an instance that does not forward tries to take over.
const forwarderRetry = time.Second

// NewForwarder forwards what input delivers from the outbox topic to the broker's stream.
func NewForwarder(b *Broker, db *sqldb.DB, input func(ctx context.Context) (message.Subscriber, error), logger watermill.LoggerAdapter) (*Forwarder, error) {
	cfg := b.Config()
	pub, err := wmnats.NewPublisherWithNatsConn(b.nc, wmnats.PublisherPublishConfig{
		Marshaler:         &wmnats.NATSMarshaler{}, // payload as is, metadata as headers
		SubjectCalculator: wmnats.DefaultSubjectCalculator,
		JetStream: wmnats.JetStreamConfig{
			TrackMsgId:     true, // Nats-Msg-Id = event id: a republished event is dropped
			ConnectOptions: []nats.JSOpt{nats.MaxWait(cfg.PublishTimeout)},
			PublishOptions: []nats.PubOpt{nats.ExpectStream(cfg.StreamName())},
		},
	}, logger)
	if err != nil {
		return nil, fmt.Errorf("jetstream publisher: %w", err)
	}
	return &Forwarder{broker: b, db: db, input: input, logger: logger, pub: pub,
		stop: make(chan struct{}), done: make(chan struct{})}, nil
}

// Start returns at once: the forwarder runs whenever this instance holds its lock.
func (f *Forwarder) Start(context.Context) error {
	go f.run()
	return nil
}

// Stop finishes the event in hand and stops.
func (f *Forwarder) Stop(ctx context.Context) error {
	close(f.stop)
	select {
	case <-f.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("events forwarder stop: %w", ctx.Err())
	}
}

func (f *Forwarder) run() {
	defer close(f.done)
	for {
		if lock, ok := f.lead(); ok {
			if err := f.forward(lock); err != nil {
				f.logger.Error("events forwarder", err, nil)
			}
		}
		select {
		case <-f.stop:
			return
		case <-time.After(forwarderRetry):
		}
	}
}

// lead takes the forwarder's lock; lock is nil on SQLite (one instance, no lock).
func (f *Forwarder) lead() (lock *sql.Conn, ok bool) {
	if f.db.Dialect != sqldb.Postgres {
		return nil, true
	}
	ctx := context.Background()
	conn, err := f.db.Writer.Conn(ctx)
	if err != nil {
		return nil, false
	}
	var got bool
	if err := conn.QueryRowContext(ctx, `SELECT pg_try_advisory_lock(hashtextextended($1 || current_schema(), 0))`, forwarderLock).Scan(&got); err != nil || !got {
		_ = conn.Close()
		return nil, false
	}
	return conn, true
}

// forwarderLock names the advisory lock of the forwarder, with the schema: advisory locks
// are per database, and deployments (or tests) may share one in schemas of their own.
const forwarderLock = "creatorapi.events." + eventbus.ForwarderGroup

// forward runs the forwarder component until stop, or until the lock's connection is lost.
func (f *Forwarder) forward(lock *sql.Conn) error {
	if lock != nil {
		defer func() {
			_, _ = lock.ExecContext(context.Background(), `SELECT pg_advisory_unlock(hashtextextended($1 || current_schema(), 0))`, forwarderLock)
			_ = lock.Close()
		}()
	}
	in, err := f.input(context.Background())
	if err != nil {
		return err
	}
	// Closed only after the event in hand is published, its subscription detached from the
	// component router's cancellation (which would roll back the batch's position).
	ds := &drain.Subscriber{Subscriber: in}
	fwd, err := forwarder.NewForwarder(ds, f.pub, f.logger, forwarder.Config{
		ForwarderTopic: eventbus.Topic,
		Middlewares:    []message.HandlerMiddleware{f.addressed(ds)},
		CloseTimeout:   20 * time.Second,
	})
	if err != nil {
		_ = in.Close()
		return fmt.Errorf("events forwarder: %w", err)
	}
	ran := make(chan error, 1)
	go func() { ran <- fwd.Run(context.Background()) }()
	tick := time.NewTicker(forwarderRetry)
	defer tick.Stop()
	for {
		select {
		case err := <-ran:
			return err
		case <-f.stop:
			_ = fwd.Close()
			return <-ran
		case <-tick.C:
			if lock == nil {
				continue
			}
			if err := lock.PingContext(context.Background()); err != nil {
				_ = fwd.Close() // the lock went with its connection: let the next holder forward
				<-ran
				return fmt.Errorf("forwarder lock lost: %w", err)
			}
		}
	}
}

// addressed puts an outbox event in the forwarder's envelope, addressed to the subject
// of its workspace's partition, before the forwarder's handler unwraps and publishes it.
// A failed publish waits (growing, up to forwardBackoffMax) before the event is nacked
// and offered again, so that an absent broker is not hammered.
func (f *Forwarder) addressed(ds *drain.Subscriber) message.HandlerMiddleware {
	return func(h message.HandlerFunc) message.HandlerFunc { return f.address(ds, h) }
}

func (f *Forwarder) address(ds *drain.Subscriber, h message.HandlerFunc) message.HandlerFunc {
	cfg := f.broker.Config()
	return func(msg *message.Message) ([]*message.Message, error) {
		if !ds.Enter() {
			return nil, drain.ErrStopping
		}
		defer ds.Leave()
		subject := cfg.Subject(events.PartitionOf(msg.Metadata.Get(eventbus.MetaWorkspaceID), cfg.Partitions))
		env, err := envelope(subject, msg)
		if err != nil {
			return nil, err
		}
		if err := f.broker.EnsureStream(msg.Context()); err != nil {
			return nil, f.failed(err)
		}
		if _, err := h(env); err != nil {
			f.broker.forgetStream() // perhaps the stream is gone: provision it again
			return nil, f.failed(err)
		}
		f.mu.Lock()
		f.backoff = 0
		f.mu.Unlock()
		return nil, nil
	}
}

// failed logs err, waits the backoff, and returns err (the event is nacked, then offered again).
func (f *Forwarder) failed(err error) error {
	f.mu.Lock()
	f.backoff = min(max(2*f.backoff, forwardBackoffMin), forwardBackoffMax)
	wait := f.backoff
	f.mu.Unlock()
	f.logger.Info("forward to jetstream failed, the outbox keeps the event", watermill.LogFields{"error": err.Error(), "retry_in": wait.String()})
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-f.stop:
	}
	return err
}

// envelope wraps msg in the forwarder component's envelope for subject, through the
// component's own publisher (its envelope format is not exported).
func envelope(subject string, msg *message.Message) (*message.Message, error) {
	var c capture
	if err := forwarder.NewPublisher(&c, forwarder.PublisherConfig{ForwarderTopic: eventbus.Topic}).Publish(subject, msg); err != nil {
		return nil, fmt.Errorf("envelope %s: %w", msg.UUID, err)
	}
	return c.msg, nil
}

// capture is a publisher that keeps the one message published to it.
type capture struct{ msg *message.Message }

func (c *capture) Publish(_ string, msgs ...*message.Message) error {
	c.msg = msgs[0]
	return nil
}

func (c *capture) Close() error { return nil }
