package natstransport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
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
// A failed transaction is retried here with the same messages; on Close the prefix the
// router acknowledged commits and the rest is handed back (handBack).
type batchSubscriber struct {
	db       *sqldb.DB
	broker   *Broker
	consumer events.Consumer
	name     string // the durable consumer
	subject  string
	batch    int
	linger   time.Duration
	ackWait  time.Duration // bounds the wait for the router's verdict on one message
	idle     time.Duration // how long a pull waits before its consumer is asked (idleCheck)
	received *atomic.Int64 // the transport's count of messages taken from the broker
	logger   watermill.LoggerAdapter
	warn     *slog.Logger // the pull's trouble: seen at the services' usual level
	nc       *nats.Conn   // the part's own connection, drained on Close
	js       jetstream.JetStream

	closing chan struct{}
	stop    context.CancelFunc // ends a wait for the next message
	mu      sync.Mutex
	done    chan struct{} // closed when the loop ended; nil before Subscribe
	once    sync.Once
}

// lazyLinger is how long a lazy consumer's batch waits for more events after its first
// (the SQL transport's lazy consumers apply within a second what came meanwhile). It is
// also what such a part holds unacknowledged: a consumer leader's death redelivers that
// (duplicates the ledger skips), and 200 ms made 2.1–2.6 % of the cluster test's deliveries.
const lazyLinger = 50 * time.Millisecond

// Subscribe starts the batch loop on subject (the part's), once.
func (s *batchSubscriber) Subscribe(ctx context.Context, _ string) (<-chan *message.Message, error) {
	// ctx carries the batch transactions (database/sql rolls back a transaction whose
	// context ends: Close must not); pulls wait on a context Close cancels.
	ctx = context.WithoutCancel(ctx)
	pulls, stop := context.WithCancel(ctx)
	cons, it, recovering, err := s.open(ctx)
	if err != nil {
		stop()
		return nil, err
	}
	out := make(chan *message.Message)
	s.mu.Lock()
	s.done, s.stop = make(chan struct{}), stop
	s.mu.Unlock()
	go s.run(ctx, pulls, cons, it, out, recovering)
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
	it, err := cons.Messages(jetstream.PullMaxMessages(min(s.batch, pullBuffer)), jetstream.PullExpiry(pullExpiry))
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

func (s *batchSubscriber) run(ctx, pulls context.Context, cons jetstream.Consumer, it jetstream.MessagesContext, out chan<- *message.Message, recovering bool) {
	defer close(s.done)
	defer close(out)
	defer func() { it.Stop() }()
	for {
		batch, err := s.take(pulls, cons, it, recovering)
		s.countReceived(batch)
		switch {
		case s.closed():
			s.handBack(append(batch, s.buffered(it)...))
			return
		case err != nil:
			// The pull stopped for good (its consumer was deleted, say: a lone server back
			// with an empty disk), or went silent while events wait: provision and pull again.
			s.warn.Warn("jetstream pull ended, pulling again", "error", err)
			it.Stop()
			if errors.Is(err, errSilentPull) {
				s.stepDown(ctx)
			}
			if !s.pause(reopenAfter(err)) {
				return
			}
			c, i, r, err := s.open(ctx)
			if err != nil {
				s.warn.Warn("jetstream consumer", "error", err)
				it = closedIterator{it}
				continue
			}
			cons, it, recovering = c, i, r
			continue
		}
		if rest, ok := s.apply(ctx, batch, out); !ok {
			s.handBack(append(rest, s.buffered(it)...))
			return
		}
		if recovering {
			recovering = s.stillRecovering(ctx, cons)
		}
	}
}

// pullBuffer bounds what a part's pull holds ahead of its batches: what was delivered and
// not yet acknowledged when a consumer's leader dies comes again (a duplicate the ledger
// skips); a buffer of 50 took the leader kill of TestEventsJetStreamClusterSurvivesANodeReplaced
// to 2.1 % duplicate deliveries. A batch still gathers up to the batch size as the pull refills.
const pullBuffer = 10

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
// While it waits, every s.idle it asks whether the pull went silent (pullWatch).
func (s *batchSubscriber) take(ctx context.Context, cons jetstream.Consumer, it jetstream.MessagesContext, recovering bool) ([]jetstream.Msg, error) {
	var batch []jetstream.Msg
	var watch pullWatch
	checked := time.Now()
	for len(batch) == 0 {
		wait, cancel := context.WithTimeout(ctx, s.idle)
		m, err := it.Next(jetstream.NextContext(wait))
		cancel()
		switch {
		case err == nil:
			batch = append(batch, m)
			continue
		case s.closed():
			return nil, nil
		case errors.Is(err, jetstream.ErrMsgIteratorClosed):
			return nil, err
		case !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, nats.ErrTimeout):
			s.warn.Warn("jetstream pull", "error", err) // a missed heartbeat, say: the pull is made again
		}
		// The pull's own recovery (a new request after missed heartbeats) repeats every
		// couple of seconds without a message: the watch looks at the consumer meanwhile.
		if time.Since(checked) >= s.idle {
			checked = time.Now()
			if err := watch.idleFor(ctx, cons, s.idle); err != nil {
				return nil, err
			}
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

// apply runs batch through the router in one transaction until it commits, and
// acknowledges to JetStream what committed. It reports false when closing stopped it,
// with the rest of the batch to hand back: the acknowledged prefix committed (as on the
// SQL transport).
func (s *batchSubscriber) apply(ctx context.Context, batch []jetstream.Msg, out chan<- *message.Message) ([]jetstream.Msg, bool) {
	for {
		settled, err := s.applyOnce(ctx, batch, out)
		s.ack(ctx, batch[:settled])
		batch = batch[settled:]
		switch {
		case err == nil:
			return nil, true
		case errors.Is(err, errClosing) || s.closed():
			return batch, false
		}
		s.logger.Error("events batch rolled back, applying it again", err, watermill.LogFields{"consumer": s.name, "events": len(batch)})
	}
}

// ack acknowledges committed messages: in order on one connection, so the last one's
// confirmation covers the others. Unconfirmed (the consumer's leader died with them), they
// are sent again, to its successor, for up to ackRetryFor: each lost ack is a redelivery
// after AckWait, which the ledger skips but which counts as a duplicate delivery (a
// batch of 50 lost took the cluster test's follower kill to 2.8 %).
func (s *batchSubscriber) ack(ctx context.Context, msgs []jetstream.Msg) {
	if len(msgs) == 0 {
		return
	}
	last := len(msgs) - 1
	for _, m := range msgs[:last] {
		_ = m.Ack()
	}
	start := time.Now()
	for try := 1; ; try++ {
		actx, cancel := context.WithTimeout(ctx, ackTimeout)
		err := msgs[last].DoubleAck(actx)
		cancel()
		if err == nil {
			return
		}
		s.warn.Warn("jetstream ack", "error", err, "events", len(msgs), "try", try)
		if time.Since(start) > ackRetryFor || !s.pause(ackRetryWait) {
			return
		}
		for _, m := range msgs[:last] {
			_ = s.nc.Publish(m.Reply(), []byte(ackBody)) // Ack refuses a message it sent once
		}
	}
}

// Acknowledgements sent again after a consumer's leader died: a new leader is elected
// within seconds ("no responders" meanwhile, at once), and the tries end within AckWait
// (10 s), after which the events come again anyway.
const (
	ackTimeout   = 2 * time.Second
	ackRetryWait = 500 * time.Millisecond
	ackRetryFor  = 6 * time.Second
)

// ackBody is JetStream's acknowledgement.
const ackBody = "+ACK"

var errClosing = errors.New("part closing")

// applyOnce applies batch in one transaction: the events the consumer takes go through
// the router, the others are only acknowledged (no transaction when none is taken). It
// returns how many of batch, from the start, are settled (committed, or not the
// consumer's). When an event is refused or closing comes, the transaction stays open for
// up to nakDelay: closing then commits the prefix the router acknowledged (the router
// refuses events while it drains, and closes the part right after), else it rolls back
// and the batch comes again.
func (s *batchSubscriber) applyOnce(ctx context.Context, batch []jetstream.Msg, out chan<- *message.Message) (settled int, err error) {
	msgs := make([]*message.Message, len(batch)) // nil: not the consumer's
	taken := false
	for i, m := range batch {
		wm, err := wmjs.DefaultUnmarshaler{}.Unmarshal(m)
		if err != nil {
			return 0, fmt.Errorf("unmarshal %s: %w", s.name, err)
		}
		if t := wm.Metadata.Get(eventbus.MetaType); t == "" || s.consumer.Handles(events.Type(t)) {
			msgs[i], taken = wm, true
		}
	}
	if !taken {
		return len(batch), nil
	}
	tx, err := s.db.Writer.BeginTx(ctx, nil)
	if err != nil {
		s.pause(nakDelay)
		return 0, fmt.Errorf("begin batch of %s: %w", s.name, err)
	}
	hooks := &sqldb.CommitHooks{}
	rollback := func(cause error) (int, error) {
		_ = tx.Rollback()
		hooks.Discard()
		return 0, cause
	}
	txCtx := s.db.WithTx(ctx, tx)
	if err := router.LockShared(txCtx, s.db, s.consumer.Name); err != nil {
		s.pause(nakDelay)
		return rollback(err)
	}
	abort := &batchtx.Abort{}
	mctx := batchtx.WithAbort(batchtx.WithSavepoint(hooks.Context(txCtx), &batchtx.Savepoint{}), abort)
	var refused error
	for i, wm := range msgs {
		if wm != nil {
			wm.SetContext(mctx)
			if refused = s.hand(wm, out); refused != nil {
				break
			}
			if abort.Err != nil {
				s.pause(batchtx.AbortedWait)
				return rollback(fmt.Errorf("batch of %s aborted: %w", s.name, abort.Err))
			}
		}
		settled = i + 1
	}
	if refused != nil && !errors.Is(refused, errClosing) && s.pause(nakDelay) {
		return rollback(refused)
	}
	if refused != nil {
		refused = errClosing
		if settled == 0 {
			return rollback(refused)
		}
	}
	if err := hooks.Flush(txCtx); err != nil {
		return rollback(fmt.Errorf("deferred writes of %s: %w", s.name, err))
	}
	if err := tx.Commit(); err != nil {
		hooks.Discard()
		s.pause(nakDelay)
		return 0, fmt.Errorf("commit batch of %s: %w", s.name, err)
	}
	hooks.Run()
	return settled, refused
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
		select {
		case <-wm.Acked(): // the router closes the part only after its verdict
			return nil
		default:
			return errClosing
		}
	case <-time.After(s.ackWait):
		return fmt.Errorf("event %s of %s: no verdict within %s", wm.UUID, s.name, s.ackWait)
	}
}

// buffered stops the pull and returns what it delivered that no batch took yet, in order.
// The pull's end (its unsubscribe) reaches the server before any nak of handBack: a nak
// makes the event deliverable at once, and the server could otherwise send it to this
// pull, where nobody reads it any more (it then waited AckWait, overtaken by later ones).
func (s *batchSubscriber) buffered(it jetstream.MessagesContext) []jetstream.Msg {
	it.Drain()
	var rest []jetstream.Msg
	for {
		m, err := it.Next(jetstream.NextMaxWait(handBackWait))
		if err != nil {
			s.countReceived(rest)
			return rest
		}
		rest = append(rest, m)
	}
}

// countReceived adds msgs to the transport's count of messages taken from the broker.
func (s *batchSubscriber) countReceived(msgs []jetstream.Msg) {
	if s.received != nil {
		s.received.Add(int64(len(msgs)))
	}
}

// handBackDelay outlasts the pull requests of the part's previous holder (pullExpiry): an
// event naked without delay was redelivered at once to such a pull, which nobody read any
// more, and then waited AckWait while later events overtook it.
const handBackDelay = pullExpiry + time.Second

// handBackWait bounds the wait for the last buffered message while handing back.
const handBackWait = 50 * time.Millisecond

// handBack naks what was taken and not committed, to be redelivered after handBackDelay
// (sooner than AckWait) to the part's next holder, which takes outstanding events one at a
// time, oldest first, before any newer one.
func (s *batchSubscriber) handBack(batch []jetstream.Msg) {
	if len(batch) > 0 {
		s.logger.Info("jetstream part handed back", watermill.LogFields{"consumer": s.name, "events": len(batch)})
	}
	for _, m := range batch {
		_ = m.NakWithDelay(handBackDelay)
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
