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
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
)

// JetStreamTransport is the Transport of the NATS JetStream broker: each part (consumer
// group, partition) reads its own durable consumer (JetStreamConfig.ConsumerName, filtered
// on the partition's subject) with at most one event unacknowledged, so that a
// partition's events are applied in order. The router applies each event in a
// transaction of its own (InTx nil: ledger row with the effects, retries, parking) and
// acknowledges it only once that committed.
type JetStreamTransport struct {
	broker *Broker
	cfg    router.Config
	logger watermill.LoggerAdapter
}

// NewJetStreamTransport builds the broker's transport.
func NewJetStreamTransport(b *Broker, cfg router.Config, logger watermill.LoggerAdapter) *JetStreamTransport {
	return &JetStreamTransport{broker: b, cfg: cfg, logger: logger}
}

// nakDelay is how long an event whose transaction failed (a database error, not a
// consumer failure: those are parked) waits before JetStream delivers it again.
const nakDelay = time.Second

// pullExpiry is how long one pull request of a part waits on the server.
const pullExpiry = 4 * time.Second

// Subscribe builds part p's subscriber: a watermill-nats JetStream subscriber on a
// connection of its own (closing one drains its connection), whose durable consumer is
// created on Subscribe. While the broker is away Subscribe fails and the router retries.
func (t *JetStreamTransport) Subscribe(_ context.Context, p eventbus.Part) (eventbus.Subscription, error) {
	name := t.broker.cfg.ConsumerName(p.Consumer.Name, p.Part, p.Parts)
	nc, err := t.broker.Connect(name)
	if err != nil {
		return eventbus.Subscription{}, err
	}
	sub, err := wmjs.NewSubscriber(wmjs.SubscriberConfig{
		Conn:   nc,
		Logger: t.logger,
		// Longer than an event's handling may take (the router's deadline): past it the
		// subscriber stops waiting for our acknowledgement.
		AckWaitTimeout:      t.cfg.AckDeadline + 5*time.Second,
		ResourceInitializer: t.durable(name),
		NakDelay:            wmjs.NewStaticDelay(nakDelay),
		// A pull lives pullExpiry, with a heartbeat every half of it: a pull lost with the
		// server that led the consumer (a cluster's node died) is noticed after two missed
		// heartbeats and made again to the new leader (the default, 30 s, stalled the part that long).
		ConsumeOptions: []jetstream.PullConsumeOpt{jetstream.PullMaxMessages(4), jetstream.PullExpiry(pullExpiry)},
	})
	if err != nil {
		nc.Close()
		return eventbus.Subscription{}, fmt.Errorf("jetstream subscriber %s: %w", name, err)
	}
	return eventbus.Subscription{Subscriber: &handingBack{Subscriber: sub, closing: make(chan struct{})}, Topic: t.broker.cfg.Subject(p.Part)}, nil
}

// handingBack nacks, when the part is closed, the event the watermill subscriber already
// took from JetStream for the router but that the router will not apply: JetStream offers
// it to the lease's next holder after nakDelay instead of after AckWait (the
// partition's only unacknowledged event would otherwise stall it that long).
type handingBack struct {
	*wmjs.Subscriber
	closing chan struct{}
	once    sync.Once
}

func (h *handingBack) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	in, err := h.Subscriber.Subscribe(ctx, topic)
	if err != nil {
		return nil, err
	}
	out := make(chan *message.Message)
	go func() {
		defer close(out)
		for msg := range in {
			select {
			case out <- msg:
			case <-h.closing:
				msg.Nack()
			}
		}
	}()
	return out, nil
}

// Close hands the event in hand back, then closes the subscriber (which drains its
// connection, so the nak goes out first).
func (h *handingBack) Close() error {
	h.once.Do(func() {
		close(h.closing)
		// An event the router refused while draining was nacked just now: the watermill
		// subscriber picks at random between sending that nak and its own close, so let
		// it send the nak first.
		time.Sleep(handBackGrace)
	})
	return h.Subscriber.Close()
}

// handBackGrace is the pause between handing an event back and closing the connection.
const handBackGrace = 50 * time.Millisecond

// durable creates (or finds) the durable consumer of (group, the partition of the
// subscribed subject). It is never deleted by the subscription: its position is the
// group's position in that partition.
func (t *JetStreamTransport) durable(name string) wmjs.ResourceInitializer {
	return func(ctx context.Context, js jetstream.JetStream, subject string) (jetstream.Consumer, func(context.Context, watermill.LoggerAdapter), error) {
		if err := t.broker.EnsureStream(ctx); err != nil {
			return nil, nil, err
		}
		cfg := t.broker.cfg
		cons, err := js.CreateOrUpdateConsumer(ctx, cfg.StreamName(), jetstream.ConsumerConfig{
			Durable:       name,
			Description:   "creatorapi consumer of " + subject,
			FilterSubject: subject,
			DeliverPolicy: jetstream.DeliverAllPolicy,
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       cfg.AckWait,
			MaxAckPending: 1,  // strict order within the partition
			MaxDeliver:    -1, // never dropped: failing events are parked by us, in the database
			Replicas:      cfg.replicas(),
		})
		if err != nil {
			t.broker.forgetStream()
			return nil, nil, fmt.Errorf("jetstream consumer %s: %w", name, err)
		}
		return cons, nil, nil
	}
}

// PartCaughtUp tells whether consumer has applied every event the stream holds in
// partition part (a durable consumer not created yet is behind when its subject holds events).
func (t *JetStreamTransport) PartCaughtUp(ctx context.Context, consumer string, part int) (bool, error) {
	cfg := t.broker.cfg
	name := cfg.ConsumerName(consumer, part, cfg.Partitions)
	cons, err := t.broker.JetStream().Consumer(ctx, cfg.StreamName(), name)
	if errors.Is(err, jetstream.ErrConsumerNotFound) {
		held, err := t.broker.SubjectCount(ctx, cfg.Subject(part))
		return held == 0, err
	}
	if err != nil {
		return false, fmt.Errorf("jetstream consumer %s: %w", name, err)
	}
	info := cons.CachedInfo()
	return info.NumPending == 0 && info.NumAckPending == 0, nil
}
