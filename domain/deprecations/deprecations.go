// Package deprecations holds what the service remembers of deprecated calls: per API key
// and route, how many and when last (so that owners can be told before a sunset), and
// the sunset notices, each sent once per key, sunset and threshold.
package deprecations

import (
	"context"
	"time"
)

// Call sums the calls one key made to one deprecated route.
type Call struct {
	WorkspaceID string
	KeyID       string
	Route       string // "GET /api/v1/courses/{id}"
	Calls       int64
	FirstSeen   time.Time
	LastSeen    time.Time
	Sunset      time.Time // of the route when last called
}

// Thresholds are the days before a sunset at which owners are told, farthest first.
var Thresholds = []int{90, 30, 7}

// StillCalling is how recent a call must be for a key to count as still calling.
const StillCalling = 30 * 24 * time.Hour

// DueThreshold is the nearest threshold a sunset has reached at now: of 90, 30 and 7
// days, the smallest that is at least the days left. Past the sunset, or farther than
// 90 days from it, none is due. A threshold passed while none was sent (a deprecation
// announced 20 days ahead) is skipped: the owner hears once, at the nearest one.
func DueThreshold(sunset, now time.Time) (int, bool) {
	left := sunset.Sub(now)
	if left <= 0 {
		return 0, false
	}
	due, ok := 0, false
	for _, days := range Thresholds {
		if left <= time.Duration(days)*24*time.Hour {
			due, ok = days, true
		}
	}
	return due, ok
}

// Notice is an e-mail to a workspace owner about one key that still calls routes whose
// sunset is ThresholdDays away (or less).
type Notice struct {
	WorkspaceID   string
	KeyID         string
	Sunset        time.Time
	ThresholdDays int
	To            string
	Subject       string
	Body          string
	CreatedAt     time.Time
}

// Repository stores the counts and the notices.
type Repository interface {
	// AddCalls adds each call's count to its (workspace, key, route) row, keeping the
	// earliest first and the latest last time, and the sunset given.
	AddCalls(ctx context.Context, calls []Call) error
	// Calls lists the workspace's rows, by key then route.
	Calls(ctx context.Context, workspaceID string) ([]Call, error)
	// CallingBefore lists the rows of every workspace whose sunset is after now and whose
	// last call is at or after since.
	CallingBefore(ctx context.Context, now, since time.Time) ([]Call, error)
	// AddNotice stores n unless a notice of its (workspace, key, sunset, threshold) exists;
	// it reports whether it stored.
	AddNotice(ctx context.Context, n Notice) (bool, error)
	// ClaimNotices leases up to limit unsent notices (none leased past now) until leaseUntil.
	ClaimNotices(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Notice, error)
	// MarkSent records that n was sent.
	MarkSent(ctx context.Context, n Notice, at time.Time) error
}
