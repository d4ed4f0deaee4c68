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
	// Types are the event types Handle acts on; nil means every type. Events of other
	// types are acknowledged without calling Handle and without a ledger row: each one
	// costs a savepoint and a row per consumer otherwise (docs/events.md).
	Types []Type
	// Lazy consumers are not woken by each commit (SQL transport; a broker delivers as it
	// does): commits only tell them to look at their next safety poll (within a second),
	// where one transaction applies what came meanwhile. For read
	// models that may lag a second (the analytics projection answers with its asOf), it
	// saves a transaction per event at low load (docs/events.md, "Wakeups").
	Lazy bool
	// Inline consumers run in the transaction that publishes the event, not as a consumer
	// group: their writes commit with the event itself, exactly once, with no position,
	// ledger row or transaction of their own. A failure fails the publishing change.
	Inline bool
}

// Handles tells whether c acts on events of type t.
func (c Consumer) Handles(t Type) bool {
	if c.Types == nil {
		return true
	}
	for _, x := range c.Types {
		if x == t {
			return true
		}
	}
	return false
}
