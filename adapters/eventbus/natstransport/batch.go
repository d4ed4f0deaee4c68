package natstransport

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	wmjs "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/jetstream"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// batchSubscriber feeds one part's JetStream messages to the router in batches, each
// applied in one database transaction (the router's InTx path, as on the SQL transport:
// a ledger row and a savepoint per event, the consumer's deferred writes flushed before the
// commit) and acknowledged to JetStream only once that committed. A transaction per event
// per consumer made the API's commits queue behind more WAL flushes (issue #32).
//
// Order: a batch is taken only after the previous one was committed and acknowledged, so
// the messages outstanding are the batch's (recovering covers what a previous holder left).
// A failed transaction is retried here with the same messages; on Close the messages
// not committed are handed back (nak, no delay: JetStream redelivers them first).
type batchSubscriber struct {
	db       *sqldb.DB
	broker   *Broker
	consumer events.Consumer
	name     string // the durable consumer
	subject  string
	batch    int
	linger   time.Duration
	ackWait  time.Duration // bounds the wait for the router's verdict on one message
	logger   watermill.LoggerAdapter
	nc       *nats.Conn // the part's own connection, drained on Close
	js       jetstream.JetStream

	closing chan struct{}
	stop    context.CancelFunc // ends a wait for the next message
	mu      sync.Mutex
	done    chan struct{} // closed when the loop ended; nil before Subscribe
	once    sync.Once
}

// lazyLinger is how long a lazy consumer's batch waits for more events after its first:
// on the SQL transport a lazy consumer applies within its safety poll (a second) what came
// meanwhile; here a fifth of that gathers a batch at any load above a few events a second.
const lazyLinger = 200 * time.Millisecond

// Subscribe starts the batch loop on subject (the part's), once.
func (s *batchSubscriber) Subscribe(ctx context.Context, _ string) (<-chan *message.Message, error) {
	ctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	cons, it, recovering, err := s.open(ctx)
	if err != nil {
		stop()
		return nil, err
	}
	out := make(chan *message.Message)
	s.mu.Lock()
	s.done, s.stop = make(chan struct{}), stop
	s.mu.Unlock()
	go s.run(ctx, cons, it, out, recovering)
	return out, nil
}

// open creates (or finds) the part's durable consumer and starts pulling from it.
func (s *batchSubscriber) open(ctx context.Context) (jetstream.Consumer, jetstream.MessagesContext, bool, error) {
	cons, err := s.durable(ctx, s.batch)
	if err != nil {
		return nil, nil, false, err
	}
	recovering := cons.CachedInfo().NumAckPending > 0
	if recovering {
		// A previous holder left messages unacknowledged (it died, or handed them back):
		// one outstanding at a time until they are settled, so none of them is overtaken.
		if cons, err = s.durable(ctx, 1); err != nil {
			return nil, nil, false, err
		}
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(s.batch), jetstream.PullExpiry(pullExpiry))
	if err != nil {
		return nil, nil, false, fmt.Errorf("jetstream consume %s: %w", s.name, err)
	}
	return cons, it, recovering, nil
}

// durable creates or updates the part's durable consumer with maxPending outstanding.
func (s *batchSubscriber) durable(ctx context.Context, maxPending int) (jetstream.Consumer, error) {
	if err := s.broker.EnsureStream(ctx); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	cfg := s.broker.cfg
	cons, err := s.js.CreateOrUpdateConsumer(ctx, cfg.StreamName(), jetstream.ConsumerConfig{
		Durable:       s.name,
		Description:   "creatorapi consumer of " + s.subject,
		FilterSubject: s.subject,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxAckPending: maxPending,
		MaxDeliver:    -1, // never dropped: failing events are parked by us, in the database
		Replicas:      cfg.replicas(),
	})
	if err != nil {
		s.broker.forgetStream()
		return nil, fmt.Errorf("jetstream consumer %s: %w", s.name, err)
	}
	return cons, nil
}

func (s *batchSubscriber) run(ctx context.Context, cons jetstream.Consumer, it jetstream.MessagesContext, out chan<- *message.Message, recovering bool) {
	defer close(s.done)
	defer close(out)
	defer func() { it.Stop() }()
	for {
		batch, err := s.take(ctx, it, recovering)
		switch {
		case s.closed():
			return
		case err != nil:
			// The pull stopped for good (its consumer was deleted, say: a lone server back
			// with an empty disk): provision and pull again.
			s.logger.Info("jetstream pull ended, pulling again", watermill.LogFields{"consumer": s.name, "error": err.Error()})
			it.Stop()
			if !s.pause(reopenWait) {
				return
			}
			c, i, r, err := s.open(ctx)
			if err != nil {
				s.logger.Info("jetstream consumer", watermill.LogFields{"consumer": s.name, "error": err.Error()})
				it = closedIterator{it}
				continue
			}
			cons, it, recovering = c, i, r
			continue
		}
		if !s.apply(ctx, batch, out) {
			s.handBack(batch)
			return
		}
		if recovering {
			recovering = s.stillRecovering(ctx, cons)
		}
	}
}

// reopenWait is the pause before a part's pull is made again after it ended.
const reopenWait = 250 * time.Millisecond

// closedIterator stands for a pull that could not be made again: the next take fails at
// once, and the loop tries again after reopenWait.
type closedIterator struct{ jetstream.MessagesContext }

func (closedIterator) Next(...jetstream.NextOpt) (jetstream.Msg, error) {
	return nil, jetstream.ErrMsgIteratorClosed
}
func (closedIterator) Stop() {}

// pause waits d unless closing; it reports false when closing.
func (s *batchSubscriber) pause(d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-s.closing:
		return false
	}
}

// take waits for a message, then gathers what else comes within the linger (what is
// already buffered at least), up to the batch size. A recovering part takes one at a time.
func (s *batchSubscriber) take(ctx context.Context, it jetstream.MessagesContext, recovering bool) ([]jetstream.Msg, error) {
	var batch []jetstream.Msg
	for len(batch) == 0 {
		m, err := it.Next(jetstream.NextContext(ctx))
		switch {
		case err == nil:
			batch = append(batch, m)
		case s.closed():
			return nil, nil
		case errors.Is(err, jetstream.ErrMsgIteratorClosed):
			return nil, err
		case !errors.Is(err, nats.ErrTimeout):
			s.logger.Info("jetstream pull", watermill.LogFields{"consumer": s.name, "error": err.Error()})
		}
	}
	if recovering {
		return batch, nil
	}
	until := time.Now().Add(s.linger)
	for len(batch) < s.batch {
		m, err := it.Next(jetstream.NextMaxWait(max(time.Until(until), time.Millisecond)))
		if err != nil {
			break
		}
		batch = append(batch, m)
	}
	return batch, nil
}

// stillRecovering tells, after a batch, whether messages of a previous holder are still
// outstanding; once none is, the consumer gets its batch size back.
func (s *batchSubscriber) stillRecovering(ctx context.Context, cons jetstream.Consumer) bool {
	ictx, cancel := context.WithTimeout(ctx, apiTimeout)
	info, err := cons.Info(ictx)
	cancel()
	if err != nil || info.NumAckPending > 0 {
		return true
	}
	if _, err := s.durable(ctx, s.batch); err != nil {
		s.logger.Error("jetstream consumer back to batches", err, watermill.LogFields{"consumer": s.name})
		return true
	}
	return false
}

// apply runs batch through the router in one transaction until it commits, then
// acknowledges it to JetStream. It reports false when closing stopped it uncommitted.
func (s *batchSubscriber) apply(ctx context.Context, batch []jetstream.Msg, out chan<- *message.Message) bool {
	for {
		err := s.applyOnce(ctx, batch, out)
		if err == nil {
			break
		}
		if errors.Is(err, errClosing) {
			return false
		}
		s.logger.Error("events batch rolled back, applying it again", err, watermill.LogFields{"consumer": s.name, "events": len(batch)})
		select {
		case <-time.After(nakDelay):
		case <-s.closing:
			return false
		}
	}
	last := len(batch) - 1
	for _, m := range batch[:last] {
		_ = m.Ack() // in order on one connection: the last one's confirmation covers them
	}
	actx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	if err := batch[last].DoubleAck(actx); err != nil {
		// Committed: a redelivery finds the ledger rows and changes nothing.
		s.logger.Info("jetstream ack", watermill.LogFields{"consumer": s.name, "error": err.Error()})
	}
	return true
}

var errClosing = errors.New("part closing")

// applyOnce applies batch in one transaction: the events the consumer takes go through
// the router, the others are only acknowledged (no transaction when none is taken).
func (s *batchSubscriber) applyOnce(ctx context.Context, batch []jetstream.Msg, out chan<- *message.Message) (err error) {
	var taken []*message.Message
	for _, m := range batch {
		wm, err := wmjs.DefaultUnmarshaler{}.Unmarshal(m)
		if err != nil {
			return fmt.Errorf("unmarshal %s: %w", s.name, err)
		}
		if t := wm.Metadata.Get(eventbus.MetaType); t == "" || s.consumer.Handles(events.Type(t)) {
			taken = append(taken, wm)
		}
	}
	if len(taken) == 0 {
		return nil
	}
	tx, err := s.db.Writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin batch of %s: %w", s.name, err)
	}
	hooks := &sqldb.CommitHooks{}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
			hooks.Discard()
		}
	}()
	txCtx := s.db.WithTx(ctx, tx)
	if err := router.LockShared(txCtx, s.db, s.consumer.Name); err != nil {
		return err
	}
	abort := &batchtx.Abort{}
	mctx := batchtx.WithAbort(batchtx.WithSavepoint(hooks.Context(txCtx), &batchtx.Savepoint{}), abort)
	for _, wm := range taken {
		wm.SetContext(mctx)
		if err := s.hand(wm, out); err != nil {
			return err
		}
		if abort.Err != nil {
			return fmt.Errorf("batch of %s aborted: %w", s.name, abort.Err)
		}
	}
	if err := hooks.Flush(txCtx); err != nil {
		return fmt.Errorf("deferred writes of %s: %w", s.name, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit batch of %s: %w", s.name, err)
	}
	hooks.Run()
	return nil
}

// hand gives wm to the router and waits for its verdict: nil when acked.
func (s *batchSubscriber) hand(wm *message.Message, out chan<- *message.Message) error {
	select {
	case out <- wm:
	case <-s.closing:
		return errClosing
	}
	select {
	case <-wm.Acked():
		return nil
	case <-wm.Nacked():
		return fmt.Errorf("event %s of %s not applied", wm.UUID, s.name)
	case <-s.closing:
		return errClosing
	case <-time.After(s.ackWait):
		return fmt.Errorf("event %s of %s: no verdict within %s", wm.UUID, s.name, s.ackWait)
	}
}

// handBack naks what was taken and not committed: JetStream offers it to the part's next
// holder at once, first (a lease's next holder would otherwise wait AckWait).
func (s *batchSubscriber) handBack(batch []jetstream.Msg) {
	for _, m := range batch {
		_ = m.Nak()
	}
}

func (s *batchSubscriber) closed() bool {
	select {
	case <-s.closing:
		return true
	default:
		return false
	}
}

// Close stops the loop (the router closes only after its message in flight finished),
// waits for it to hand back what it held, and drains the part's connection.
func (s *batchSubscriber) Close() error {
	s.once.Do(func() {
		close(s.closing)
		s.mu.Lock()
		done, stop := s.done, s.stop
		s.mu.Unlock()
		if stop != nil {
			stop()
		}
		if done != nil {
			<-done
		}
		_ = s.nc.Drain()
	})
	return nil
}

var _ message.Subscriber = (*batchSubscriber)(nil)

// txFromMessage is the Subscription's InTx: the batch transaction the message carries.
func txFromMessage(msg *message.Message) (context.Context, bool) {
	ctx := msg.Context()
	return ctx, batchtx.AbortFrom(ctx) != nil
}
