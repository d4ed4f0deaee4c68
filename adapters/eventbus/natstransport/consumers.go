package natstransport

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// JetStreamTransport is the Transport of the NATS JetStream broker: each part (consumer
// group, partition) reads its own durable consumer (JetStreamConfig.ConsumerName, filtered
// on the partition's subject) in batches (batchSubscriber): a batch's events are applied
// in order in one database transaction, ledger row and effects per event, and
// acknowledged only once it committed.
type JetStreamTransport struct {
	broker *Broker
	db     *sqldb.DB
	cfg    router.Config
	logger watermill.LoggerAdapter
	warn   *slog.Logger // a part's pull trouble, seen at the services' usual level (warn)

	received atomic.Int64 // messages the parts took from the broker (Register)
}

// NewJetStreamTransport builds the broker's transport.
func NewJetStreamTransport(b *Broker, db *sqldb.DB, cfg router.Config, logger *slog.Logger) *JetStreamTransport {
	return &JetStreamTransport{broker: b, db: db, cfg: cfg, logger: watermill.NewSlogLogger(logger), warn: logger}
}

// nakDelay is how long a batch whose transaction failed (a database error, not a
// consumer failure: those are parked) waits before it is applied again.
const nakDelay = time.Second

// pullExpiry is how long one pull request of a part waits on the server, with a heartbeat
// every half of it: a pull lost with the server that led the consumer (a cluster's node
// died) is noticed after two missed heartbeats and made again to the new leader (the
// default, 30 s, stalled the part that long).
const pullExpiry = 4 * time.Second

// Subscribe builds part p's subscriber on a connection of its own (closing it drains the
// connection); its durable consumer is created on Subscribe. While the broker is away
// Subscribe fails and the router retries.
func (t *JetStreamTransport) Subscribe(_ context.Context, p eventbus.Part) (eventbus.Subscription, error) {
	name := t.broker.cfg.ConsumerName(p.Consumer.Name, p.Part, p.Parts)
	nc, err := t.broker.Connect(name)
	if err != nil {
		return eventbus.Subscription{}, err
	}
	sub := &batchSubscriber{
		db: t.db, broker: t.broker, consumer: p.Consumer, name: name, subject: t.broker.cfg.Subject(p.Part),
		batch: t.batchSize(), ackWait: t.cfg.AckDeadline + 5*time.Second, idle: idleCheck, logger: t.logger, warn: t.warn.With("consumer", name),
		nc: nc, closing: make(chan struct{}), received: &t.received,
	}
	if p.Consumer.Lazy {
		sub.linger = lazyLinger
	}
	if sub.js, err = jetstream.New(nc); err != nil {
		nc.Close()
		return eventbus.Subscription{}, fmt.Errorf("jetstream %s: %w", name, err)
	}
	return eventbus.Subscription{Subscriber: sub, Topic: sub.subject, InTx: txFromMessage}, nil
}

// replicatedInFlight bounds a part's batch, and so its MaxAckPending, on a replicated
// stream. JetStream 2.9 sends a message before the cluster agreed it was delivered, and
// confirms an ack before it agreed it was acknowledged: a consumer's new leader sends
// again what its dead predecessor had out unacknowledged, at most MaxAckPending, plus
// acks confirmed within the replication lag. With 50 the cluster test's kills took up to
// 2.8 % of its 3,000 deliveries again (1.2 % in 16 runs); 5 bounds its 8 consumers' share
// at 40 per leader change (0.4 % at most in 16 runs), and costs no throughput at 200/s
// (docs/performance.md).
const replicatedInFlight = 5

// batchSize is what one part applies in a transaction and holds unacknowledged.
func (t *JetStreamTransport) batchSize() int {
	n := max(t.cfg.BatchSize, 1)
	if t.broker.cfg.replicas() > 1 {
		n = min(n, replicatedInFlight)
	}
	return n
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
