package web

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// lazyDeadline is a request's context with a deadline whose timer starts only when
// something waits on it (Done: a database driver, a channel select). Most requests of
// the public API are answered from memory and never wait, so they pay for neither the
// timer nor context.WithDeadline's allocations. Once armed it is exactly a
// context.WithDeadline of the parent, and it hands that context's values on, so that
// contexts derived from it join its cancellation without a goroutine of their own.
type lazyDeadline struct {
	parent   context.Context
	deadline time.Time
	mu       sync.Mutex
	armed    atomic.Pointer[armedDeadline]
}

type armedDeadline struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func newLazyDeadline(parent context.Context, d time.Duration) *lazyDeadline {
	return &lazyDeadline{parent: parent, deadline: time.Now().Add(d)}
}

func (l *lazyDeadline) arm() *armedDeadline {
	if a := l.armed.Load(); a != nil {
		return a
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if a := l.armed.Load(); a != nil {
		return a
	}
	ctx, cancel := context.WithDeadline(l.parent, l.deadline)
	a := &armedDeadline{ctx: ctx, cancel: cancel}
	l.armed.Store(a)
	return a
}

// stop ends the request: the timer, if one was started, and every derived context.
func (l *lazyDeadline) stop() {
	if a := l.armed.Load(); a != nil {
		a.cancel()
	}
}

func (l *lazyDeadline) Deadline() (time.Time, bool) { return l.deadline, true }

func (l *lazyDeadline) Done() <-chan struct{} { return l.arm().ctx.Done() }

func (l *lazyDeadline) Err() error {
	if a := l.armed.Load(); a != nil {
		return a.ctx.Err()
	}
	if err := l.parent.Err(); err != nil {
		return err
	}
	if !time.Now().Before(l.deadline) {
		return context.DeadlineExceeded
	}
	return nil
}

func (l *lazyDeadline) Value(key any) any {
	if a := l.armed.Load(); a != nil {
		return a.ctx.Value(key)
	}
	return l.parent.Value(key)
}
