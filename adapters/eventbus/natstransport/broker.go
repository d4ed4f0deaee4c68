package natstransport

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
)

// JetStreamConfig names and tunes the NATS JetStream transport of the event stream.
type JetStreamConfig struct {
	URL string // one or more nats:// URLs, comma separated
	// Prefix starts every name on the server (CREATORAPI_EVENTS_STREAM), so that several
	// deployments share one NATS server: stream <prefix>_events, subjects
	// <prefix>.events.<partition>, consumers <prefix>_<group>_p<part>of<parts>.
	Prefix     string
	Partitions int
	// AckWait is how long JetStream waits for an event's acknowledgement before it
	// delivers it again: what a partition stalls when its instance died holding one.
	AckWait time.Duration
	// MaxAge is how long the stream keeps events (the outbox's retention: the outbox
	// stays the source of truth; the stream is a transport).
	MaxAge time.Duration
	// Duplicates is the window in which JetStream drops an event published twice (the
	// forwarder republishes what it sent before a crash but could not record).
	Duplicates time.Duration
	// PublishTimeout bounds the wait for JetStream's acknowledgement of a publish.
	PublishTimeout time.Duration
	// Replicas is how many servers of a JetStream cluster hold the stream and each durable
	// consumer (CREATORAPI_EVENTS_REPLICAS): 1 on a lone server, 3 in a cluster, where a
	// replicated stream and consumers keep working, nothing lost, while one server is down.
	Replicas int
}

// DefaultJetStreamConfig returns the production settings for url and prefix.
func DefaultJetStreamConfig(url, prefix string, partitions int, maxAge time.Duration) JetStreamConfig {
	return JetStreamConfig{
		URL: url, Prefix: prefix, Partitions: partitions, MaxAge: maxAge,
		AckWait: 10 * time.Second, Duplicates: 2 * time.Minute, PublishTimeout: 5 * time.Second,
		Replicas: 1,
	}
}

// replicas is Replicas, at least 1.
func (c JetStreamConfig) replicas() int { return max(c.Replicas, 1) }

// StreamName is the stream that holds the deployment's events.
func (c JetStreamConfig) StreamName() string { return c.Prefix + "_events" }

// Subject is the subject of a partition's events.
func (c JetStreamConfig) Subject(partition int) string {
	return fmt.Sprintf("%s.events.%d", c.Prefix, partition)
}

// ConsumerName is the durable consumer of partition part of parts of consumer: the
// prefix, then the part's position name (Part.Group) with '/' (not allowed) as '_'.
func (c JetStreamConfig) ConsumerName(consumer string, part, parts int) string {
	return c.Prefix + "_" + strings.ReplaceAll(eventbus.PartGroup(consumer, part, parts), "/", "_")
}

// Broker is this instance's link to NATS: the connection the forwarder publishes on, the
// stream's provisioning, and the readiness check. The connection never gives up: while
// the server is away publishes fail at once (no reconnect buffer, so nothing is sent
// twice by a reconnect) and the outbox keeps the events until it is back.
type Broker struct {
	cfg    JetStreamConfig
	logger watermill.LoggerAdapter
	nc     *nats.Conn
	js     jetstream.JetStream

	mu     sync.Mutex
	stream bool // provisioned on this connection
}

// NewBroker connects to the server (in the background when it is not there yet).
func NewBroker(cfg JetStreamConfig, logger watermill.LoggerAdapter) (*Broker, error) {
	b := &Broker{cfg: cfg, logger: logger}
	nc, err := b.Connect("creatorapi-publisher")
	if err != nil {
		return nil, err
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("jetstream: %w", err)
	}
	b.nc, b.js = nc, js
	return b, nil
}

// Config returns the transport's names and settings.
func (b *Broker) Config() JetStreamConfig { return b.cfg }

// Connect opens a connection of the deployment that keeps reconnecting.
func (b *Broker) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect(b.cfg.URL,
		nats.Name(name),
		nats.RetryOnFailedConnect(true), // start even when the server is away
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.ReconnectBufSize(-1), // publish fails while disconnected instead of piling up
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				b.logger.Info("nats disconnected", watermill.LogFields{"connection": name, "error": err.Error()})
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) {
			b.logger.Info("nats reconnected", watermill.LogFields{"connection": name})
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("connect to nats at %s: %w", b.cfg.URL, err)
	}
	return nc, nil
}

// EnsureStream creates or updates the stream once per connection (again after a failure).
func (b *Broker) EnsureStream(ctx context.Context) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stream {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, apiTimeout)
	defer cancel()
	_, err := b.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        b.cfg.StreamName(),
		Description: "creatorapi domain events, forwarded from the outbox; one subject per partition",
		Subjects:    []string{b.cfg.Prefix + ".events.*"},
		// Limits, not interest: a (group, partition) consumer may be created after the
		// events it will read were published.
		Retention:  jetstream.LimitsPolicy,
		Storage:    jetstream.FileStorage,
		MaxAge:     b.cfg.MaxAge,
		Duplicates: b.cfg.Duplicates,
		Replicas:   b.cfg.replicas(),
	})
	if err != nil {
		return fmt.Errorf("jetstream stream %s: %w", b.cfg.StreamName(), err)
	}
	b.stream = true
	return nil
}

// apiTimeout bounds a stream provisioning request. Right after a cluster lost the server
// leading the stream such a request may get no answer at all; unbounded, the forwarder
// waited for its outbox message's deadline (30 s) before it published again.
const apiTimeout = 5 * time.Second

// errBrokerAway reports a disconnected broker to the readiness probe.
var errBrokerAway = errors.New("not connected to NATS")

// Ping tells whether the server answers and holds the stream (the readiness check), and
// whether each of the stream's replicas is current (Degraded when one is not).
func (b *Broker) Ping(ctx context.Context) error {
	if !b.nc.IsConnected() {
		return fmt.Errorf("%w (%s)", errBrokerAway, b.nc.Status())
	}
	if err := b.EnsureStream(ctx); err != nil {
		return err
	}
	s, err := b.js.Stream(ctx, b.cfg.StreamName())
	if err != nil {
		b.forgetStream() // deleted behind our back: provision it again next time
		return fmt.Errorf("jetstream stream %s: %w", b.cfg.StreamName(), err)
	}
	return replicaState(s.CachedInfo())
}

// Degraded is a broker that carries the events with fewer copies than configured: a
// replica of the stream is offline or still catching up (a cluster's node is down or was
// replaced). Nothing waits for it; one more loss would stop the stream.
type Degraded string

func (d Degraded) Error() string { return string(d) }

// replicaState is nil when every replica of the stream is current, Degraded otherwise.
func replicaState(info *jetstream.StreamInfo) error {
	if info == nil || info.Cluster == nil || info.Config.Replicas <= 1 {
		return nil
	}
	if info.Cluster.Leader == "" {
		return fmt.Errorf("jetstream stream %s has no leader", info.Config.Name)
	}
	current := 1 // the leader
	for _, r := range info.Cluster.Replicas {
		if r != nil && r.Current && !r.Offline {
			current++
		}
	}
	if current < info.Config.Replicas {
		return Degraded(fmt.Sprintf("%d of %d stream replicas current (a NATS node is down or catching up)", current, info.Config.Replicas))
	}
	return nil
}

// JetStream returns the management API on the broker's connection.
func (b *Broker) JetStream() jetstream.JetStream { return b.js }

// Close closes the connection.
func (b *Broker) Close() { b.nc.Close() }

// forgetStream makes the next EnsureStream ask the server again (after a failure that
// may mean the stream is gone, say a server that restarted without its storage).
func (b *Broker) forgetStream() {
	b.mu.Lock()
	b.stream = false
	b.mu.Unlock()
}

// SubjectCount returns how many events the stream holds on subject.
func (b *Broker) SubjectCount(ctx context.Context, subject string) (uint64, error) {
	s, err := b.js.Stream(ctx, b.cfg.StreamName())
	if err != nil {
		return 0, fmt.Errorf("jetstream stream %s: %w", b.cfg.StreamName(), err)
	}
	info, err := s.Info(ctx, jetstream.WithSubjectFilter(subject))
	if err != nil {
		return 0, fmt.Errorf("jetstream stream %s: %w", b.cfg.StreamName(), err)
	}
	return info.State.Subjects[subject], nil
}
