package sqlstore

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/keys/query"
)

// KeyUsage keeps last-use times and request counts per key and UTC day in memory and
// flushes them in bulk, so that authenticating a request never costs a database write.
type KeyUsage struct {
	mu      sync.Mutex
	pending map[string]time.Time
	counts  map[keyDay]int64
	keys    *Keys
}

type keyDay struct{ keyID, day string }

// NewKeyUsage builds the recorder over the key store.
func NewKeyUsage(keys *Keys) *KeyUsage {
	return &KeyUsage{pending: map[string]time.Time{}, counts: map[keyDay]int64{}, keys: keys}
}

// RecordUse notes that keyID was used at at: one more request on at's day.
func (u *KeyUsage) RecordUse(keyID string, at time.Time) {
	u.mu.Lock()
	u.note(keyID, at)
	u.counts[keyDay{keyID, query.DayKey(at)}]++
	u.mu.Unlock()
}

func (u *KeyUsage) note(keyID string, at time.Time) {
	if at.After(u.pending[keyID]) {
		u.pending[keyID] = at
	}
}

// LastUsed returns the unflushed use of keyID.
func (u *KeyUsage) LastUsed(keyID string) (time.Time, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	at, ok := u.pending[keyID]
	return at, ok
}

// Flush writes the pending uses and counts; on failure they are kept for the next flush.
func (u *KeyUsage) Flush(ctx context.Context) error {
	u.mu.Lock()
	batch, counts := u.pending, u.counts
	u.pending, u.counts = map[string]time.Time{}, map[keyDay]int64{}
	u.mu.Unlock()
	if len(batch) > 0 {
		if err := u.keys.TouchLastUsed(ctx, batch); err != nil {
			u.restore(batch, counts)
			return err
		}
	}
	if err := u.addCounts(ctx, counts); err != nil {
		u.restore(nil, counts)
		return err
	}
	return nil
}

func (u *KeyUsage) restore(batch map[string]time.Time, counts map[keyDay]int64) {
	u.mu.Lock()
	defer u.mu.Unlock()
	for id, at := range batch {
		u.note(id, at)
	}
	for k, n := range counts {
		u.counts[k] += n
	}
}

// addCounts adds the counts in one transaction, a statement per key and day (a flush
// holds at most the keys used since the last one).
func (u *KeyUsage) addCounts(ctx context.Context, counts map[keyDay]int64) error {
	if len(counts) == 0 {
		return nil
	}
	db := u.keys.db
	stmt := db.Rebind(`INSERT INTO api_key_requests_daily (workspace_id, key_id, day, requests)
		SELECT workspace_id, id, ?, ? FROM api_keys WHERE id = ?
		ON CONFLICT (workspace_id, day, key_id) DO UPDATE SET requests = api_key_requests_daily.requests + excluded.requests`)
	err := db.WithinTx(ctx, func(ctx context.Context) error {
		for k, n := range counts {
			if _, err := db.Write(ctx).ExecContext(ctx, stmt, k.day, n, k.keyID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("count key requests: %w", err)
	}
	return nil
}

// Daily lists the workspace's request counts for the days [from, to], by key then day.
func (u *KeyUsage) Daily(ctx context.Context, workspaceID, from, to string) ([]query.RequestDay, error) {
	db := u.keys.db
	var out []query.RequestDay
	err := db.Read(ctx).SelectContext(ctx, &out, db.Rebind(`SELECT r.key_id, k.name, r.day, r.requests
		FROM api_key_requests_daily r JOIN api_keys k ON k.id = r.key_id
		WHERE r.workspace_id = ? AND r.day >= ? AND r.day <= ? ORDER BY k.name, r.key_id, r.day`), workspaceID, from, to)
	if err != nil {
		return nil, fmt.Errorf("key requests: %w", err)
	}
	return out, nil
}
