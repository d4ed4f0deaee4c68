// Package clock tells the time. Instants are UTC and cut to microseconds, the
// precision PostgreSQL keeps, so a value reads back exactly as it was written.
package clock

import (
	"sync"
	"time"
)

// System is the real clock.
type System struct{}

// Now returns the current UTC time to the microsecond.
func (System) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Manual is a clock tests move by hand. Safe for concurrent use.
type Manual struct {
	mu  sync.Mutex
	now time.Time
}

// NewManual starts a manual clock at t.
func NewManual(t time.Time) *Manual { return &Manual{now: t.UTC().Truncate(time.Microsecond)} }

// Now returns the set time.
func (m *Manual) Now() time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.now
}

// Set moves the clock to t.
func (m *Manual) Set(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = t.UTC().Truncate(time.Microsecond)
}

// Advance moves the clock forward by d.
func (m *Manual) Advance(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.now = m.now.Add(d)
}
