package sqlstore

import (
	"context"
	"sync"
	"time"
)

// KeyUsage keeps last-use times in memory and flushes them in bulk, so that
// authenticating a request never costs a database write.
type KeyUsage struct {
	mu      sync.Mutex
	pending map[string]time.Time
	keys    *Keys
}

// NewKeyUsage builds the recorder over the key store.
func NewKeyUsage(keys *Keys) *KeyUsage {
	return &KeyUsage{pending: map[string]time.Time{}, keys: keys}
}

// RecordUse notes that keyID was used at at.
func (u *KeyUsage) RecordUse(keyID string, at time.Time) {
	u.mu.Lock()
	if at.After(u.pending[keyID]) {
		u.pending[keyID] = at
	}
	u.mu.Unlock()
}

// LastUsed returns the unflushed use of keyID.
func (u *KeyUsage) LastUsed(keyID string) (time.Time, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	at, ok := u.pending[keyID]
	return at, ok
}

// Flush writes the pending uses; on failure they are kept for the next flush.
func (u *KeyUsage) Flush(ctx context.Context) error {
	u.mu.Lock()
	batch := u.pending
	u.pending = map[string]time.Time{}
	u.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	if err := u.keys.TouchLastUsed(ctx, batch); err != nil {
		for id, at := range batch {
			u.RecordUse(id, at)
		}
		return err
	}
	return nil
}
