package ratelimit

import (
	"sync"
	"sync/atomic"
	"time"
)

// blocklist remembers, on this instance, the clients refused for failed
// authentications until the refusal's reset.
type blocklist struct {
	mu      sync.Mutex
	entries map[string]Decision
	size    atomic.Int64 // len(entries), read without the lock
}

func newBlocklist() *blocklist { return &blocklist{entries: map[string]Decision{}} }

func (b *blocklist) add(subject string, d Decision) {
	b.mu.Lock()
	b.entries[subject] = d
	b.size.Store(int64(len(b.entries)))
	b.mu.Unlock()
}

// empty tells whether no client is blocked: the common case, answered without naming
// the client's bucket or taking the lock.
func (b *blocklist) empty() bool { return b.size.Load() == 0 }

// get returns the refusal of subject still in force at now, its Retry-After counted
// from now.
func (b *blocklist) get(subject string, now time.Time) (Decision, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	d, ok := b.entries[subject]
	if !ok {
		return Decision{}, false
	}
	if !now.Before(d.RetryAt) {
		delete(b.entries, subject)
		b.size.Store(int64(len(b.entries)))
		return Decision{}, false
	}
	d.RetryAfter = secondsUntil(now, d.RetryAt)
	return d, true
}

func (b *blocklist) prune(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for s, d := range b.entries {
		if !now.Before(d.RetryAt) {
			delete(b.entries, s)
		}
	}
	b.size.Store(int64(len(b.entries)))
}
