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

// RequestCounts is the small read model of API requests per key per day, counted in
// memory where keys are authenticated and added in batches (never a write per request).
type RequestCounts interface {
	// Daily lists the workspace's counts for the days [from, to] (YYYY-MM-DD), by key then day.
	Daily(ctx context.Context, workspaceID, from, to string) ([]RequestDay, error)
}

// DayKey is the UTC day of t as the read model keys it.
func DayKey(t time.Time) string { return t.UTC().Format("2006-01-02") }
