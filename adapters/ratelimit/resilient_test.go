package ratelimit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// switchable is a shared store that can be taken away: a Memory while up, an error while down.
type switchable struct {
	*Memory
	down  atomic.Bool
	calls atomic.Int64
}

func (s *switchable) Take(ctx context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	s.calls.Add(1)
	if s.down.Load() {
		return ratelimit.Usage{}, false, errors.New("connection refused")
	}
	return s.Memory.Take(ctx, subject, w, q)
}

func (s *switchable) Ping(context.Context) error {
	if s.down.Load() {
		return errors.New("connection refused")
	}
	return nil
}

// Many concurrent requests at the moment the shared store goes away switch to memory once,
// none fails, none touches the store while degraded, and the probe switches back.
func TestResilientSwitchesOnceAndBack(t *testing.T) {
	shared := &switchable{Memory: NewMemory()}
	r := NewResilient(shared, slog.New(slog.NewTextHandler(io.Discard, nil)), 10*time.Millisecond)
	defer r.Close()
	w := ratelimit.Windows{Minute: time.Unix(600, 0), Day: time.Unix(0, 0)}
	q := ratelimit.Quota{PerMinute: 1 << 30, PerDay: 1 << 30}
	ctx := context.Background()

	shared.down.Store(true)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if _, ok, err := r.Take(ctx, "key:a", w, q); err != nil || !ok {
					t.Errorf("take while the store is away: %v %v", ok, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if !r.Degraded() || r.Outages() != 1 {
		t.Fatalf("degraded %v after %d outages, want one switch", r.Degraded(), r.Outages())
	}
	if calls := shared.calls.Load(); calls > 16 {
		t.Errorf("%d calls reached the dead store; at most the 16 in flight at the switch may", calls)
	}
	shared.down.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for r.Degraded() {
		if time.Now().After(deadline) {
			t.Fatal("still degraded after the store came back")
		}
		time.Sleep(5 * time.Millisecond)
	}
	before := shared.calls.Load()
	if _, _, err := r.Take(ctx, "key:a", w, q); err != nil || shared.calls.Load() != before+1 {
		t.Fatalf("take after the return: %v, store calls %d -> %d", err, before, shared.calls.Load())
	}
}
