package eventbus

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/application/events"
)

// Partitions is the deployment's partition count (CREATORAPI_EVENTS_PARTITIONS): events
// are partitioned by workspace (events.PartitionOf), and each (consumer group, partition)
// pair is consumed by one instance at a time under a lease (docs/events.md, "Partitions").
type Partitions int

// Part is one (consumer group, partition) pair of a layout of Parts partitions: the unit
// that the lease runner hands to one instance at a time and a Transport subscribes to.
type Part struct {
	Consumer events.Consumer
	Part     int // in [0, Parts)
	Parts    int // the layout's partition count
}

// Group names the part's position: its watermill-sql consumer group (and, for a broker,
// its durable consumer). With one partition it is the consumer's name, as before
// partitions existed; otherwise "name/p3of8", so that two layouts never share a position.
func (p Part) Group() string { return PartGroup(p.Consumer.Name, p.Part, p.Parts) }

// Holds tells whether an event of the given partition key (events.PartitionKey) is this part's.
func (p Part) Holds(key uint32) bool { return p.Parts <= 1 || int(key%uint32(p.Parts)) == p.Part }

// String is for logs.
func (p Part) String() string { return p.Group() }

// PartGroup names the position of partition part of parts of consumer.
func PartGroup(consumer string, part, parts int) string {
	if parts <= 1 {
		return consumer
	}
	return fmt.Sprintf("%s/p%dof%d", consumer, part, parts)
}

// PartOfGroup reads any consumer's partitioned position name ("name/p3of8"); ok is false
// for a name without partitions.
func PartOfGroup(group string) (part, parts int, ok bool) {
	i := strings.LastIndex(group, "/p")
	if i < 0 {
		return 0, 0, false
	}
	part, parts, ok = ParsePartGroup(group, group[:i])
	return part, parts, ok && parts > 1
}

// ParsePartGroup reads a position's name back: ok is false for another consumer's.
func ParsePartGroup(group, consumer string) (part, parts int, ok bool) {
	if group == consumer {
		return 0, 1, true
	}
	rest, found := strings.CutPrefix(group, consumer+"/p")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(rest, "of")
	if !found {
		return 0, 0, false
	}
	part, err1 := strconv.Atoi(a)
	parts, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || parts < 1 || part < 0 || part >= parts {
		return 0, 0, false
	}
	return part, parts, true
}

// Transport is the seam between the lease runner and what carries events to consumers.
// The runner calls Subscribe when this instance wins a part's lease, and closes the
// returned subscriber when it gives the lease up (rebalance, layout change, stop) or
// loses it. The SQL transport (sqltransport.Transport: a watermill-sql subscriber polling the
// outbox for the part's partition) is the default; a broker implements the same.
type Transport interface {
	Subscribe(ctx context.Context, p Part) (Subscription, error)
}

// Subscription is one part's stream.
//
// Subscriber.Subscribe(ctx, Topic) must deliver the part's events (and only them) in
// stream order, at least once; each message carries UUID = event id, Payload = the
// events.Envelope JSON the outbox wrote, and the metadata MetaType, MetaWorkspaceID,
// MetaVersion. The router acks a message once its effect is committed (or parked) and nacks
// it when the database failed. Close must stop delivering, may be called twice, and is
// called by the router only after the message in flight finished; the router detaches the
// subscribe context from its own cancellation (Close alone ends a subscription).
//
// InTx, when set, returns the transaction a message is to be applied in (SQL: the poll's
// batch transaction, which commits the effect with the position; JetStream: the batch
// transaction, acknowledged to the broker after it committed) as a context for
// sqldb.DB.WithTx-aware repositories; ok false is an error. When InTx is nil, the router
// opens one database transaction per message, applies it with its ledger marker,
// commits, and only then acks: a redelivery after a crash finds the marker.
type Subscription struct {
	Subscriber message.Subscriber
	Topic      string
	InTx       func(msg *message.Message) (ctx context.Context, ok bool)
}
