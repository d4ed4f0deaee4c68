package testenv

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/creatorapi/creatorapi/application/events"
)

// OutboxEvents returns every event in the outbox, in stream order.
func (e *Env) OutboxEvents(t testing.TB) []events.Envelope {
	t.Helper()
	var payloads [][]byte
	if err := e.DB.Reader.SelectContext(context.Background(), &payloads, `SELECT payload FROM watermill_events ORDER BY "offset"`); err != nil {
		t.Fatalf("read outbox: %v", err)
	}
	out := make([]events.Envelope, len(payloads))
	for i, p := range payloads {
		if err := json.Unmarshal(p, &out[i]); err != nil {
			t.Fatalf("outbox payload %q: %v", p, err)
		}
	}
	return out
}

// OutboxEventsOfType filters OutboxEvents.
func (e *Env) OutboxEventsOfType(t testing.TB, typ events.Type) []events.Envelope {
	t.Helper()
	var out []events.Envelope
	for _, ev := range e.OutboxEvents(t) {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// EventTypes lists the envelopes' types in order: what a test compares with cmp.Diff.
func EventTypes(evs []events.Envelope) []events.Type {
	types := make([]events.Type, 0, len(evs))
	for _, e := range evs {
		types = append(types, e.Type)
	}
	return types
}
