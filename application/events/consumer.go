package events

import "context"

// Consumer handles every event of the stream, in order, at least once: one consumer group
// (the inbound ports declare them, the event adapter runs them). Handle runs inside the
// subscriber's transaction (carried by ctx like any other transaction), so writes made
// through the repositories commit together with the consumer's offset: a replayed event
// must change nothing (make Handle idempotent). Return nil for types it does not handle.
type Consumer struct {
	// Name is the consumer group. Renaming it replays the whole stream to the new name.
	Name   string
	Handle func(ctx context.Context, ev Envelope) error
}
