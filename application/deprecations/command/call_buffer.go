package command

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// CallBuffer counts deprecated calls in memory and writes them in bulk (the "flush
// deprecated calls" worker, as often as key usage), so that a deprecated call costs a
// map update, never a database write on the request's path.
type CallBuffer struct {
	mu      sync.Mutex
	pending map[callKey]*deprecations.Call
	repo    deprecations.Repository
}

type callKey struct{ workspaceID, keyID, route string }

// NewCallBuffer builds the buffer over repo.
func NewCallBuffer(repo deprecations.Repository) *CallBuffer {
	return &CallBuffer{pending: map[callKey]*deprecations.Call{}, repo: repo}
}

// Record counts one call of a deprecated route by a key, at at, with the route's sunset.
func (b *CallBuffer) Record(workspaceID, keyID, route string, sunset, at time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	k := callKey{workspaceID, keyID, route}
	c := b.pending[k]
	if c == nil {
		c = &deprecations.Call{WorkspaceID: workspaceID, KeyID: keyID, Route: route, FirstSeen: at}
		b.pending[k] = c
	}
	b.add(c, deprecations.Call{Calls: 1, FirstSeen: at, LastSeen: at, Sunset: sunset})
}

func (b *CallBuffer) add(c *deprecations.Call, more deprecations.Call) {
	c.Calls += more.Calls
	if more.FirstSeen.Before(c.FirstSeen) {
		c.FirstSeen = more.FirstSeen
	}
	if !more.LastSeen.Before(c.LastSeen) {
		c.LastSeen, c.Sunset = more.LastSeen, more.Sunset
	}
}

// Flush writes what was counted; on failure the counts are kept for the next flush.
func (b *CallBuffer) Flush(ctx context.Context) (int, error) {
	b.mu.Lock()
	batch := b.pending
	b.pending = map[callKey]*deprecations.Call{}
	b.mu.Unlock()
	if len(batch) == 0 {
		return 0, nil
	}
	calls := make([]deprecations.Call, 0, len(batch))
	for _, c := range batch {
		calls = append(calls, *c)
	}
	if err := b.repo.AddCalls(ctx, calls); err != nil {
		b.mu.Lock()
		for k, c := range batch {
			if mine := b.pending[k]; mine != nil {
				b.add(mine, *c)
			} else {
				b.pending[k] = c
			}
		}
		b.mu.Unlock()
		return 0, fmt.Errorf("flush deprecated calls: %w", err)
	}
	return len(calls), nil
}
