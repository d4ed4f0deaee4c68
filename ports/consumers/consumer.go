// Package consumers holds the inbound side of the event stream: projections, the webhook
// fan-out and cross-module reactions. Each Consumer is one watermill consumer group.
package consumers

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
)

// Consumer handles every event of the stream, in order, at least once. Handle runs inside
// the subscriber's transaction (carried by ctx like any other transaction), so writes made
// through the repositories commit together with the consumer's offset: a replayed event
// must change nothing (make Handle idempotent). Return nil for types it does not handle.
type Consumer struct {
	// Name is the consumer group. Renaming it replays the whole stream to the new name.
	Name   string
	Handle func(ctx context.Context, ev events.Envelope) error
}
