// Package ratelimit holds the counting stores of the rate limiter: in memory for one
// instance, in the database for instances that share it.
package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// Memory counts in this process: exact on one instance and free of database writes,
// which is why the embedded default uses it. Counts are lost on restart.
type Memory struct {
	mu       sync.Mutex
	subjects map[string]*windowCounts
}

type windowCounts struct {
	minuteStart, dayStart int64 // unix seconds
	minute, day           int
}

// NewMemory builds an empty store.
func NewMemory() *Memory { return &Memory{subjects: map[string]*windowCounts{}} }

// Take checks and counts under one lock, so both buckets move together or not at all.
func (m *Memory) Take(_ context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	minute, day := w.Minute.Unix(), w.Day.Unix()
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.subjects[subject]
	if c == nil {
		c = &windowCounts{minuteStart: minute, dayStart: day}
		m.subjects[subject] = c
	}
	// A window only moves forward, as in the database store.
	if minute > c.minuteStart {
		c.minuteStart, c.minute = minute, 0
	}
	if day > c.dayStart {
		c.dayStart, c.day = day, 0
	}
	if c.minute >= q.PerMinute || c.day >= q.PerDay {
		return ratelimit.Usage{Minute: c.minute, Day: c.day}, false, nil
	}
	c.minute++
	c.day++
	return ratelimit.Usage{Minute: c.minute, Day: c.day}, true, nil
}

// Sweep drops the subjects last counted before dayStart.
func (m *Memory) Sweep(_ context.Context, dayStart time.Time) (int, error) {
	cutoff := dayStart.Unix()
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for s, c := range m.subjects {
		if c.dayStart < cutoff {
			delete(m.subjects, s)
			n++
		}
	}
	return n, nil
}
