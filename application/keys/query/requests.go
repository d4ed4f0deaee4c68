package query

import (
	"context"
	"time"
)

// RequestDay is how many API requests one key made on one UTC day.
type RequestDay struct {
	KeyID    string `db:"key_id"`
	Name     string `db:"name"`
	Day      string `db:"day"` // YYYY-MM-DD
	Requests int64  `db:"requests"`
}

// KeyDay is one key on one UTC day (YYYY-MM-DD), what the request counts are kept by.
type KeyDay struct{ KeyID, Day string }

// RequestCounts is the small read model of API requests per key per day, counted in
// memory where keys are authenticated and added in batches (never a write per request).
type RequestCounts interface {
	// Daily lists the workspace's counts for the days [from, to] (YYYY-MM-DD), by key
	// name, key id, then day.
	Daily(ctx context.Context, workspaceID, from, to string) ([]RequestDay, error)
}

// UsageStore keeps what the usage buffer flushes: last uses and request counts.
type UsageStore interface {
	// TouchLastUsed moves each key's last use forward to the time given, never back.
	TouchLastUsed(ctx context.Context, lastUsed map[string]time.Time) error
	// AddRequests adds request counts per key and day; a key the store does not hold
	// is skipped.
	AddRequests(ctx context.Context, counts map[KeyDay]int64) error
}

// DayKey is the UTC day of t as the read model keys it.
func DayKey(t time.Time) string { return t.UTC().Format("2006-01-02") }

// RequestsPerDay asks for a workspace's request counts over the days [From, To].
type RequestsPerDay struct {
	WorkspaceID string
	From, To    time.Time
}

// RequestsPerDay lists the counts by key, then day.
func (r Reads) RequestsPerDay(ctx context.Context, q RequestsPerDay) ([]RequestDay, error) {
	return r.Requests.Daily(ctx, q.WorkspaceID, DayKey(q.From), DayKey(q.To))
}
