// Package query holds the events feed's use cases: one workspace's events in stream order,
// a page at a time, waiting for the next ones when asked to (docs/events.md, "The events
// feed").
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

// Position is a place in the outbox's stream, in its order: on PostgreSQL
// (transaction_id, offset), on SQLite offset alone (Tx 0). A reader at a position has
// read every event of its workspace at or before it.
type Position struct {
	Tx     uint64
	Offset int64
}

// Log reads the outbox for the feed (adapters/eventbus/feed).
type Log interface {
	// Read returns up to r.Limit events of r.WorkspaceID after r.After, in stream order,
	// of which no earlier one can still commit (PostgreSQL's snapshot rule).
	Read(ctx context.Context, r Read) (Batch, error)
	// Event returns one event of the workspace; kernel.NotFound when it has none by that id.
	Event(ctx context.Context, workspaceID, eventID string) (events.Envelope, error)
}

// Read is one read of the outbox.
type Read struct {
	WorkspaceID string
	After       Position
	Types       []events.Type // never empty
	Since       *time.Time    // only events created at or after it
	Limit       int
}

// Batch is what one Read found.
type Batch struct {
	Items []Item
	More  bool // more matching events lie beyond the last item
	// Horizon is where a reader stands once it has the items when More is false: every
	// event at or before it is final (committed or gone), and events that commit later
	// come after it.
	Horizon Position
	// HeldBack tells that events of the workspace beyond the horizon have committed but
	// wait for an older transaction still open (PostgreSQL): read again soon.
	HeldBack bool
}

// Item is one event and its position.
type Item struct {
	Position Position
	Envelope events.Envelope
}

// Signals wakes waiting readers after a commit that may have published events of a
// workspace (adapters/eventbus/wakeup; other instances' commits through PostgreSQL's
// LISTEN).
type Signals interface {
	Subscribe(workspaceID string) (signals <-chan struct{}, cancel func())
}

// Before tells whether p comes before o in the stream.
func (p Position) Before(o Position) bool {
	return p.Tx < o.Tx || (p.Tx == o.Tx && p.Offset < o.Offset)
}
