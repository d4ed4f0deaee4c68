package query

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Reads are the feed's queries over its ports.
type Reads struct {
	Log       Log
	Signals   Signals
	Clock     platform.Clock
	Retention time.Duration // CREATORAPI_EVENTS_RETENTION: how long the outbox keeps events
}

// ListEvents asks for the events of a workspace after a cursor.
type ListEvents struct {
	WorkspaceID string
	Cursor      *Cursor // nil: from Since, or from the oldest retained event
	Types       []events.Type
	Since       *time.Time
	Limit       int
	// Wait, when above zero, holds the answer until at least one event is there or Wait
	// has passed (a long poll).
	Wait time.Duration
	// Stop, closed when the server stops, ends a wait with what there is.
	Stop <-chan struct{}
}

// Page is one answer: the events and where to resume. Next is never empty: at the tail
// it is the tail, so a reader that comes back misses nothing and reads nothing twice.
type Page struct {
	Items   []PageItem
	Next    Cursor
	HasMore bool
}

// PageItem is one event and the cursor that resumes right after it (the stream's id:).
type PageItem struct {
	Envelope events.Envelope
	Cursor   Cursor
}

const (
	// safetyPoll bounds a wait for a signal that was lost (a commit by a process without
	// a signal to this one, such as the CLI on SQLite).
	safetyPoll = time.Second
	// heldBackPoll is how soon to look again when committed events wait for an older
	// transaction to end (PostgreSQL's snapshot rule).
	heldBackPoll = 25 * time.Millisecond
)

// ListEvents reads a page, waiting for events up to q.Wait when there are none.
func (r Reads) ListEvents(ctx context.Context, q ListEvents) (Page, error) {
	types, err := PublicTypes(q.Types)
	if err != nil {
		return Page{}, err
	}
	read := Read{WorkspaceID: q.WorkspaceID, Types: types, Since: q.Since, Limit: q.Limit}
	if q.Cursor != nil {
		if q.Cursor.Expired(r.Clock.Now(), r.Retention) {
			return Page{}, ErrCursorExpired
		}
		read.After = q.Cursor.Position
	}
	var signals <-chan struct{}
	if q.Wait > 0 {
		// Subscribed before the first read: a commit between the read and the wait
		// leaves its signal pending.
		ch, cancel := r.Signals.Subscribe(q.WorkspaceID)
		defer cancel()
		signals = ch
	}
	deadline := time.Now().Add(q.Wait)
	for {
		b, err := r.Log.Read(ctx, read)
		if err != nil {
			return Page{}, fmt.Errorf("read events: %w", err)
		}
		left := time.Until(deadline)
		if len(b.Items) > 0 || left <= 0 {
			return r.page(b), nil
		}
		read.After = b.Horizon // nothing matched up to here: the next read starts past it
		poll := safetyPoll
		if b.HeldBack {
			poll = heldBackPoll
		}
		timer := time.NewTimer(min(poll, left))
		select {
		case <-signals:
		case <-timer.C:
		case <-q.Stop:
			timer.Stop()
			return r.page(b), nil
		case <-ctx.Done():
			timer.Stop()
			return Page{}, ctx.Err()
		}
		timer.Stop()
	}
}

func (r Reads) page(b Batch) Page {
	p := Page{HasMore: b.More, Items: make([]PageItem, len(b.Items))}
	for i, it := range b.Items {
		p.Items[i] = PageItem{Envelope: it.Envelope, Cursor: Cursor{Position: it.Position, Stamp: it.Envelope.CreatedAt}}
	}
	if b.More {
		p.Next = p.Items[len(p.Items)-1].Cursor
	} else {
		p.Next = Cursor{Position: b.Horizon, Stamp: r.Clock.Now()}
	}
	return p
}

// PublicTypes checks a type filter: every name a public type, none twice; empty means
// every public type (the internal ones never leave the service).
func PublicTypes(types []events.Type) ([]events.Type, error) {
	if len(types) == 0 {
		return events.PublicTypes, nil
	}
	for i, t := range types {
		if !events.IsPublic(t) {
			return nil, kernel.Invalid("types", "types: unknown event type %q; the catalogue's types are %s", t, joinTypes(events.PublicTypes))
		}
		if slices.Contains(types[:i], t) {
			return nil, kernel.Invalid("types", "types: %q is given twice", t)
		}
	}
	return types, nil
}

func joinTypes(ts []events.Type) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += ", "
		}
		s += string(t)
	}
	return s
}

// GetEvent asks for one event of a workspace.
type GetEvent struct {
	WorkspaceID, EventID string
}

// GetEvent returns the event, or kernel.NotFound when the workspace has no public event
// by that id (another workspace's included).
func (r Reads) GetEvent(ctx context.Context, q GetEvent) (events.Envelope, error) {
	env, err := r.Log.Event(ctx, q.WorkspaceID, q.EventID)
	if err != nil {
		return events.Envelope{}, err
	}
	if env.WorkspaceID != q.WorkspaceID || !events.IsPublic(env.Type) {
		return events.Envelope{}, kernel.NotFound("no event %s in this workspace", q.EventID)
	}
	return env, nil
}
