package web

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

type traceKey struct{}

// A request's deadline that nothing waits on starts no timer, yet reports its deadline
// and expires on time; once waited on it behaves as context.WithDeadline, and contexts
// derived from it are cancelled with it, at the deadline or when the request ends.
func TestLazyDeadlineExpiresLikeWithDeadline(t *testing.T) {
	parent := context.WithValue(context.Background(), traceKey{}, "req_1")

	l := newLazyDeadline(parent, 30*time.Millisecond)
	if d, ok := l.Deadline(); !ok || time.Until(d) > 30*time.Millisecond {
		t.Fatalf("Deadline() = %v, %v", d, ok)
	}
	if l.Value(traceKey{}) != "req_1" || l.Err() != nil || l.armed.Load() != nil {
		t.Fatalf("fresh: value %v, err %v, armed %v", l.Value(traceKey{}), l.Err(), l.armed.Load() != nil)
	}
	time.Sleep(40 * time.Millisecond)
	if !errors.Is(l.Err(), context.DeadlineExceeded) || l.armed.Load() != nil {
		t.Fatalf("past the deadline, unwaited: err %v, armed %v", l.Err(), l.armed.Load() != nil)
	}
	select { // waiting now arms a deadline already past: done at once
	case <-l.Done():
	case <-time.After(time.Second):
		t.Fatal("Done not closed past the deadline")
	}

	waited := newLazyDeadline(parent, 30*time.Millisecond)
	goroutines := runtime.NumGoroutine()
	child, cancel := context.WithCancel(context.WithValue(waited, traceKey{}, "inner"))
	defer cancel()
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Fatalf("deriving a context started %d goroutines", n-goroutines)
	}
	select {
	case <-child.Done():
		if !errors.Is(child.Err(), context.DeadlineExceeded) || context.Cause(child) != context.DeadlineExceeded {
			t.Fatalf("child err %v, cause %v", child.Err(), context.Cause(child))
		}
	case <-time.After(time.Second):
		t.Fatal("derived context not cancelled at the deadline")
	}

	ended := newLazyDeadline(parent, time.Hour)
	derived, cancelDerived := context.WithCancel(ended)
	defer cancelDerived()
	ended.stop()
	select {
	case <-derived.Done():
		if !errors.Is(derived.Err(), context.Canceled) {
			t.Fatalf("after the request ended: %v", derived.Err())
		}
	case <-time.After(time.Second):
		t.Fatal("derived context not cancelled when the request ended")
	}
}
