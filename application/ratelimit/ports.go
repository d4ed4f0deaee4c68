// Package ratelimit is the application service of the public API's quotas: fixed
// windows per clock minute and per UTC day, checked and consumed atomically.
package ratelimit

import (
	"context"
	"time"
)

// Quota is an allowance per clock minute and per UTC day.
type Quota struct {
	PerMinute int
	PerDay    int
}

// Windows names the two fixed windows a request falls in, by their start.
type Windows struct {
	Minute time.Time // start of the clock minute, UTC
	Day    time.Time // 00:00 UTC of the day
}

// Usage is how many requests a subject has made in each of the current windows.
type Usage struct {
	Minute int
	Day    int
}

// Counter is the port to the counting store (memory on one instance, the database
// when instances share it).
type Counter interface {
	// Take admits one request of subject only if both windows have room under q, and
	// then counts it in both; a refused request counts nowhere. It returns the usage
	// after the decision, in the windows w.
	Take(ctx context.Context, subject string, w Windows, q Quota) (u Usage, admitted bool, err error)
	// Sweep forgets every subject whose day window started before dayStart, and
	// returns how many it forgot.
	Sweep(ctx context.Context, dayStart time.Time) (int, error)
}
