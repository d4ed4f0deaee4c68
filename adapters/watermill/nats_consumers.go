package watermill

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	wm "github.com/ThreeDotsLabs/watermill"
	wmjs "github.com/ThreeDotsLabs/watermill-nats/v2/pkg/jetstream"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/application/events"
)

// JetStreamConsumers runs consumer groups from JetStream: each (group, partition) pair
// reads its own durable consumer (<prefix>_<group>_p<partition>, filtered on the
// partition's subject) with at most one event unacknowledged, so a partition's events
// are applied in order. Each event is applied like on the SQL transport (Router.deliver:
// the ledger row in the transaction of the effects, retries, parking), in a transaction
// of its own, and acknowledged only once that committed.
type JetStreamConsumers struct {
	broker *Broker
	router *Router
	logger wm.LoggerAdapter

	mu     sync.Mutex
	subs   map[string]*wmjs.Subscriber // one per group, each on its own connection
	closed bool
}

// NewJetStreamConsumers builds the runner; router supplies the delivery (ledger, parking).
func NewJetStreamConsumers(b *Broker, r *Router, logger wm.LoggerAdapter) *JetStreamConsumers {
	return &JetStreamConsumers{broker: b, router: r, logger: logger, subs: map[string]*wmjs.Subscriber{}}
}

// nakDelay is how long an event whose transaction failed (a database error, not a
// consumer failure: those are parked) waits before JetStream delivers it again.
const nakDelay = time.Second

// subscribeRetry is the wait between attempts to subscribe while the broker is away.
const subscribeRetry = time.Second

// errConsumersClosed reports a Run after Close.
var errConsumersClosed = errors.New("jetstream consumers closed")

// Run consumes c's partition until ctx ends (the lease was lost or the service stops),
// and returns once the event being applied is done. While the broker is away it keeps
// trying to subscribe; an ended subscription is an error (the caller runs it again).
func (j *JetStreamConsumers) Run(ctx context.Context, c events.Consumer, partition int) error {
	sub, err := j.subscriber(c.Name)
	if err != nil {
		return err
	}
	// The subscription outlives ctx until the event in hand is applied and acknowledged.
	subCtx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msgs <-chan *message.Message
	for {
		msgs, err = sub.Subscribe(subCtx, j.broker.cfg.Subject(partition))
		if err == nil {
			break
		}
		j.logger.Info("jetstream subscribe failed, retrying", wm.LogFields{"consumer": c.Name, "partition": partition, "error": err.Error()})
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(subscribeRetry):
		}
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case msg, ok := <-msgs:
			if !ok {
				return fmt.Errorf("jetstream subscription of %s ended", j.broker.cfg.ConsumerName(c.Name, partition))
			}
			j.apply(c, msg)
		}
	}
}

// apply delivers msg to c in a transaction of its own, then acknowledges it; a failed
// transaction is nacked and comes again (in order: nothing else of the partition is in
// flight meanwhile).
func (j *JetStreamConsumers) apply(c events.Consumer, msg *message.Message) {
	if t := msg.Metadata.Get(MetaType); t != "" && !c.Handles(events.Type(t)) {
		msg.Ack() // not this consumer's: no transaction, no ledger row
		return
	}
	r := j.router
	ctx, cancel := context.WithTimeout(context.Background(), r.cfg.AckDeadline)
	defer cancel()
	err := r.db.WithinTx(ctx, func(ctx context.Context) error { return r.deliver(ctx, c, msg) })
	if err != nil {
		j.logger.Error("jetstream event not applied, redelivering", err, wm.LogFields{"consumer": c.Name, "event_id": msg.UUID})
		msg.Nack()
		return
	}
	msg.Ack()
}

// subscriber returns group's subscriber, created on first use.
func (j *JetStreamConsumers) subscriber(group string) (*wmjs.Subscriber, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return nil, errConsumersClosed
	}
	if s, ok := j.subs[group]; ok {
		return s, nil
	}
	// Its own connection: closing a watermill JetStream subscriber drains its connection.
	nc, err := j.broker.Connect("creatorapi-" + group)
	if err != nil {
		return nil, err
	}
	s, err := wmjs.NewSubscriber(wmjs.SubscriberConfig{
		Conn:   nc,
		Logger: j.logger,
		// Longer than an event's handling may take (the router's deadline): past it the
		// subscriber stops waiting for our acknowledgement.
		AckWaitTimeout:      j.router.cfg.AckDeadline + 5*time.Second,
		ResourceInitializer: j.durable(group),
		NakDelay:            wmjs.NewStaticDelay(nakDelay),
		ConsumeOptions:      []jetstream.PullConsumeOpt{jetstream.PullMaxMessages(4)},
	})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream subscriber %s: %w", group, err)
	}
	j.subs[group] = s
	return s, nil
}

// durable creates (or finds) the durable consumer of (group, the partition of the
// subscribed subject). It is never deleted by the subscription: its position is the
// group's position in that partition.
func (j *JetStreamConsumers) durable(group string) wmjs.ResourceInitializer {
	return func(ctx context.Context, js jetstream.JetStream, subject string) (jetstream.Consumer, func(context.Context, wm.LoggerAdapter), error) {
		partition, err := strconv.Atoi(subject[strings.LastIndexByte(subject, '.')+1:])
		if err != nil {
			return nil, nil, fmt.Errorf("subject %q has no partition: %w", subject, err)
		}
		if err := j.broker.EnsureStream(ctx); err != nil {
			return nil, nil, err
		}
		cfg := j.broker.cfg
		cons, err := js.CreateOrUpdateConsumer(ctx, cfg.StreamName(), jetstream.ConsumerConfig{
			Durable:       cfg.ConsumerName(group, partition),
			Description:   fmt.Sprintf("consumer group %s, partition %d", group, partition),
			FilterSubject: subject,
			DeliverPolicy: jetstream.DeliverAllPolicy,
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       cfg.AckWait,
			MaxAckPending: 1,  // strict order within the partition
			MaxDeliver:    -1, // never dropped: failing events are parked by us, in the database
		})
		if err != nil {
			j.broker.forgetStream()
			return nil, nil, fmt.Errorf("jetstream consumer %s: %w", cfg.ConsumerName(group, partition), err)
		}
		return cons, nil, nil
	}
}

// CaughtUp tells whether group has applied every event the stream holds, in every
// partition (a consumer not created yet is behind when its subject holds events).
func (j *JetStreamConsumers) CaughtUp(ctx context.Context, group string) (bool, error) {
	cfg := j.broker.cfg
	js := j.broker.JetStream()
	for p := range cfg.Partitions {
		cons, err := js.Consumer(ctx, cfg.StreamName(), cfg.ConsumerName(group, p))
		if errors.Is(err, jetstream.ErrConsumerNotFound) {
			held, err := j.broker.SubjectCount(ctx, cfg.Subject(p))
			if err != nil {
				return false, err
			}
			if held > 0 {
				return false, nil
			}
			continue
		}
		if err != nil {
			return false, fmt.Errorf("jetstream consumer %s: %w", cfg.ConsumerName(group, p), err)
		}
		info := cons.CachedInfo()
		if info.NumPending > 0 || info.NumAckPending > 0 {
			return false, nil
		}
	}
	return true, nil
}

// Close ends every subscription (run them out first) and their connections.
func (j *JetStreamConsumers) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	var errs []error
	for _, s := range j.subs {
		errs = append(errs, s.Close())
	}
	j.subs = map[string]*wmjs.Subscriber{}
	return errors.Join(errs...)
}
