package wakeup

import (
	"context"
	"database/sql"
	"slices"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"github.com/creatorapi/creatorapi/application/events"
)

// Notifier sends the PostgreSQL notifications of this instance's commits after they
// committed, merged: while one NOTIFY is in flight the next commits' keys and types
// gather, and go out together in the next (one statement in flight per instance).
//
// Why not NOTIFY in the publishing transaction: PostgreSQL serializes the commits of
// notifying transactions behind one database-wide lock held through their WAL flush (the
// notification queue keeps commit order), so every API write queued behind the others'
// fsyncs, and the more instances wrote (rate-limit claims, recording, consumers), the
// longer each flush and the queue: the top wait of the webhook path at three instances
// was that lock at commit. A NOTIFY in a transaction of its own writes no WAL, so it holds
// the lock for microseconds. The price: a crash between a commit and its notification
// leaves other instances' subscribers to their safety check (within a second).
type Notifier struct {
	db     *sql.DB
	from   string
	logger watermill.LoggerAdapter

	mu      sync.Mutex
	running bool
	all     bool // some commit's keys were unknown: wake every partition
	keys    []uint32
	types   []events.Type
	untyped bool // some commit's types were unknown: wake at once
	pending bool
}

// maxKeys bounds a merged notification's key list (the payload must stay under 8000 bytes):
// beyond it the notification wakes every partition.
const maxKeys = 256

// NewNotifier builds a notifier sending on db as instance from.
func NewNotifier(db *sql.DB, from string, logger watermill.LoggerAdapter) *Notifier {
	return &Notifier{db: db, from: from, logger: logger}
}

// Send queues a commit's notification; it never blocks on the database.
func (n *Notifier) Send(keys []uint32, types []events.Type) {
	n.mu.Lock()
	n.pending = true
	if len(keys) == 0 {
		n.all = true
	}
	for _, k := range keys {
		if !n.all && !slices.Contains(n.keys, k) {
			n.keys = append(n.keys, k)
		}
	}
	if len(n.keys) > maxKeys {
		n.all, n.keys = true, nil
	}
	if len(types) == 0 {
		n.untyped = true
	}
	for _, t := range types {
		if !slices.Contains(n.types, t) {
			n.types = append(n.types, t)
		}
	}
	start := !n.running
	n.running = true
	n.mu.Unlock()
	if start {
		go n.flush()
	}
}

// flush sends what gathered until nothing is left.
func (n *Notifier) flush() {
	for {
		payload, ok := n.take()
		if !ok {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		if _, err := n.db.ExecContext(ctx, `SELECT pg_notify($1, $2)`, NotifyChannel, payload); err != nil {
			n.logger.Error("events notify: other instances wake at their safety check", err, nil)
		}
		cancel()
	}
}

// take returns the merged payload of what gathered and empties it; when nothing did, it
// marks the notifier stopped and reports false.
func (n *Notifier) take() (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.pending {
		n.running = false
		return "", false
	}
	keys, types := n.keys, n.types
	if n.all {
		keys = nil
	}
	if n.untyped {
		types = nil
	}
	n.pending, n.all, n.untyped, n.keys, n.types = false, false, false, nil, nil
	return Notification(n.from, keys, types...), true
}

// Wait returns once every queued notification went out (or ctx ends): a process that
// stops right after a commit, a one-shot command say, still wakes the others at once.
func (n *Notifier) Wait(ctx context.Context) error {
	for {
		n.mu.Lock()
		idle := !n.running
		n.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(2 * time.Millisecond):
		}
	}
}
