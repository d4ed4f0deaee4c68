package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// BackfillIDPrefix prefixes backfill ids (bkf_...).
const BackfillIDPrefix = "bkf"

// MaxBackfillAge is how far back a backfill may start: the outbox keeps 30 days of events
// (CREATORAPI_EVENTS_RETENTION's default), and so does the delivery log.
const MaxBackfillAge = 30 * 24 * time.Hour

// Position is a place in the event stream: (transaction id, offset) on PostgreSQL, the
// offset on SQLite (Tx 0).
type Position struct {
	Tx     uint64
	Offset int64
}

// Before orders positions.
func (p Position) Before(o Position) bool {
	return p.Tx < o.Tx || p.Tx == o.Tx && p.Offset < o.Offset
}

// BackfillStatus is where a backfill stands.
type BackfillStatus string

// Backfill statuses.
const (
	BackfillRunning BackfillStatus = "running"
	BackfillDone    BackfillStatus = "done"
)

// Backfill writes an endpoint's deliveries of the events of its types created since
// Since, read in stream order after After, until the read has passed Stop: the stream's
// tail once the endpoint was committed, so that every event whose fan-out could not see
// the endpoint is read; the live fan-out covers every later one, and the (endpoint, event)
// uniqueness of deliveries keeps an event read by both to one delivery.
type Backfill struct {
	ID, WorkspaceID, SubscriptionID string
	Since                           time.Time
	After                           Position
	Stop                            *Position // nil until the backfill first runs
	Status                          BackfillStatus
	Enqueued                        int // deliveries written
	CreatedAt, UpdatedAt            time.Time
	FinishedAt                      *time.Time
}

// NewBackfill starts a backfill of sub since since, which must lie within the last
// MaxBackfillAge.
func NewBackfill(id string, sub *Subscription, since, now time.Time) (*Backfill, error) {
	since = since.UTC()
	if since.Before(now.Add(-MaxBackfillAge)) || since.After(now) {
		return nil, kernel.Invalid("backfillSince", "backfillSince must lie within the last 30 days (after %s) and not in the future",
			now.Add(-MaxBackfillAge).UTC().Format(time.RFC3339))
	}
	return &Backfill{ID: id, WorkspaceID: sub.WorkspaceID, SubscriptionID: sub.ID, Since: since, Status: BackfillRunning,
		CreatedAt: now, UpdatedAt: now}, nil
}

// Advance records a page read up to at; the backfill is done once the read is past Stop
// and nothing matching lies beyond.
func (b *Backfill) Advance(at Position, added int, more bool, now time.Time) {
	if b.After.Before(at) {
		b.After = at
	}
	b.Enqueued += added
	b.UpdatedAt = now
	if !more && b.Stop != nil && !b.After.Before(*b.Stop) {
		b.Status, b.FinishedAt = BackfillDone, &now
	}
}

// Backfills stores backfills.
type Backfills interface {
	Add(ctx context.Context, b *Backfill) error
	// Lease takes the oldest running backfill whose lease has expired at now, leased
	// under token until until; nil when there is none.
	Lease(ctx context.Context, now, until time.Time, token string) (*Backfill, error)
	// Save writes b's progress and ends token's lease; false when token no longer holds it.
	Save(ctx context.Context, b *Backfill, token string) (bool, error)
	// Latest returns the endpoint's newest backfill, nil when it has none.
	Latest(ctx context.Context, workspaceID, subscriptionID string) (*Backfill, error)
}
