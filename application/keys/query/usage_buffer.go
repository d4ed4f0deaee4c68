package query

import (
	"context"
	"sync"
	"time"
)

// UsageBuffer keeps last-use times and request counts per key and UTC day in memory
// and flushes them to a UsageStore in bulk, so that authenticating a request never
// costs a database write. It is the UsageRecorder of the module.
type UsageBuffer struct {
	mu      sync.Mutex
	pending map[string]time.Time
	counts  map[KeyDay]int64
	store   UsageStore
	day     dayKeys
}

// dayKeys remembers the last day's key: formatting it costs an allocation per request.
type dayKeys struct {
	start int64 // unix seconds of 00:00 UTC
	key   string
}

func (d *dayKeys) of(t time.Time) string {
	start := t.Unix() - t.Unix()%86400
	if t.Unix() < 0 || start != d.start || d.key == "" {
		d.start, d.key = start, DayKey(t)
	}
	return d.key
}

// NewUsageBuffer builds the buffer over store.
func NewUsageBuffer(store UsageStore) *UsageBuffer {
	return &UsageBuffer{pending: map[string]time.Time{}, counts: map[KeyDay]int64{}, store: store}
}

// RecordUse notes that keyID was used at at: one more request on at's day.
func (u *UsageBuffer) RecordUse(keyID string, at time.Time) {
	u.mu.Lock()
	u.note(keyID, at)
	u.counts[KeyDay{keyID, u.day.of(at)}]++
	u.mu.Unlock()
}

func (u *UsageBuffer) note(keyID string, at time.Time) {
	if at.After(u.pending[keyID]) {
		u.pending[keyID] = at
	}
}

// LastUsed returns the unflushed use of keyID.
func (u *UsageBuffer) LastUsed(keyID string) (time.Time, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	at, ok := u.pending[keyID]
	return at, ok
}

// Flush writes the pending uses and counts; on failure they are kept for the next flush.
func (u *UsageBuffer) Flush(ctx context.Context) error {
	u.mu.Lock()
	batch, counts := u.pending, u.counts
	u.pending, u.counts = map[string]time.Time{}, map[KeyDay]int64{}
	u.mu.Unlock()
	if len(batch) > 0 {
		if err := u.store.TouchLastUsed(ctx, batch); err != nil {
			u.restore(batch, counts)
			return err
		}
	}
	if len(counts) > 0 {
		if err := u.store.AddRequests(ctx, counts); err != nil {
			u.restore(nil, counts)
			return err
		}
	}
	return nil
}

func (u *UsageBuffer) restore(batch map[string]time.Time, counts map[KeyDay]int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for id, at := range batch {
		u.note(id, at)
	}
	for k, n := range counts {
		u.counts[k] += n
	}
}
