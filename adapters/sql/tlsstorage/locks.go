package tlsstorage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"
)

// Lock timing: a held lock's row expires lockTTL after its last renewal and is renewed
// every lockRenew, so a crashed holder blocks the others for at most lockTTL; waiters
// retry every lockPoll.
const (
	lockTTL   = 60 * time.Second
	lockRenew = 20 * time.Second
	lockPoll  = 500 * time.Millisecond
)

// locks are the issuance locks this instance holds, each with its renewer.
type locks struct {
	s    *Storage
	mu   sync.Mutex
	held map[string]heldLock
}

type heldLock struct {
	owner string
	stop  chan struct{}
}

func newLocks(s *Storage) *locks { return &locks{s: s, held: map[string]heldLock{}} }

func (l *locks) lock(ctx context.Context, name string) error {
	var b [16]byte
	_, _ = rand.Read(b[:])
	owner := hex.EncodeToString(b[:])
	for {
		now := time.Now()
		took, err := l.s.DB.Changes(ctx, "take TLS lock", l.s.Q.TakeLock, name, owner, now.Add(lockTTL).UnixMilli(), now.UnixMilli())
		if err != nil {
			return err
		}
		if took {
			stop := make(chan struct{})
			l.mu.Lock()
			l.held[name] = heldLock{owner: owner, stop: stop}
			l.mu.Unlock()
			go l.renew(name, owner, stop)
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for TLS lock %s: %w", name, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// renew pushes the lock's expiry back while it is held.
func (l *locks) renew(name, owner string, stop <-chan struct{}) {
	tick := time.NewTicker(lockRenew)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(context.Background(), lockRenew)
			_ = l.s.DB.Exec(ctx, "renew TLS lock", l.s.Q.RenewLock, time.Now().Add(lockTTL).UnixMilli(), name, owner)
			cancel()
		}
	}
}

func (l *locks) unlock(ctx context.Context, name string) error {
	l.mu.Lock()
	h, ok := l.held[name]
	delete(l.held, name)
	l.mu.Unlock()
	if !ok {
		return fmt.Errorf("TLS lock %s is not held here", name)
	}
	close(h.stop)
	return l.s.DB.Exec(ctx, "release TLS lock", l.s.Q.DropLock, name, h.owner)
}
