package sqltransport

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// gateAfterBurst builds a gate whose burst is spent (the empty polls after a signal found
// nothing), with a one-minute safety poll and pending answering behind.
func gateAfterBurst(behind bool, calls *atomic.Int32) (*gate, chan struct{}) {
	signals := make(chan struct{}, 1)
	pending := func(context.Context) (bool, error) { calls.Add(1); return behind, nil }
	g := newGate(nil, signals, make(chan struct{}), time.Minute, time.Second,
		[]time.Duration{time.Millisecond, 2 * time.Millisecond}, 10, pending)
	g.misses = len(g.burst) + 1
	return g, signals
}

// Events held back by an older open transaction become visible with no commit to signal
// it: the gate keeps polling for them instead of sleeping until the safety poll (CI saw a
// delivery wait out a one-minute poll that way).
func TestGateKeepsPollingWhileEventsAreHeldBack(t *testing.T) {
	var calls atomic.Int32
	g, _ := gateAfterBurst(true, &calls)
	start := time.Now()
	g.wait(context.Background())
	if d := time.Since(start); d > heldBackCap+500*time.Millisecond {
		t.Fatalf("waited %v with events held back; want a poll within %v", d, heldBackCap)
	}
	if calls.Load() != 1 {
		t.Fatalf("pending asked %d times, want 1", calls.Load())
	}
}

// Nothing beyond the position: only a signal (or the safety poll) ends the wait.
func TestGateSleepsUntilSignalledWhenCaughtUp(t *testing.T) {
	var calls atomic.Int32
	g, signals := gateAfterBurst(false, &calls)
	const after = 300 * time.Millisecond
	go func() { time.Sleep(after); signals <- struct{}{} }()
	start := time.Now()
	g.wait(context.Background())
	if d := time.Since(start); d < after {
		t.Fatalf("returned after %v, before the signal at %v, with nothing pending", d, after)
	}
}

func TestGateHeldBackWaitBacksOffToItsCap(t *testing.T) {
	var calls atomic.Int32
	g, _ := gateAfterBurst(true, &calls)
	first := g.heldBackWait()
	if first != 4*time.Millisecond {
		t.Fatalf("first wait after the burst %v, want twice the last step (4ms)", first)
	}
	g.misses = 1000
	if got := g.heldBackWait(); got != heldBackCap {
		t.Fatalf("wait after many empty polls %v, want the cap %v", got, heldBackCap)
	}
}

// A poll a lazy signal started that read all it could rests until the safety poll, even
// with events beyond the position (under steady load there always are): no burst, no
// held-back polls, so a lazy consumer polls once a second, not once a commit. A signal of
// a type it takes still wakes it at once.
func TestGateAfterALazyPollRestsUntilTheSafetyPoll(t *testing.T) {
	var calls atomic.Int32
	signals, lazy := make(chan struct{}, 1), make(chan struct{}, 1)
	pending := func(context.Context) (bool, error) { calls.Add(1); return true, nil }
	const idle = 400 * time.Millisecond
	g := newGate(nil, signals, make(chan struct{}), idle, time.Second,
		[]time.Duration{time.Millisecond, 2 * time.Millisecond}, 10, pending)
	g.lazy = lazy
	g.misses = len(g.burst) + 1
	lazy <- struct{}{}
	g.wait(context.Background()) // woken lazily: polls within idle
	if !g.lazyPoll {
		t.Fatal("a poll after a lazy signal must be a lazy poll")
	}
	calls.Store(0)
	g.rows, g.heldBack = 3, true // a partial batch, more held back
	g.HandleError(nil, false, nil)
	start := time.Now()
	g.wait(context.Background())
	if d := time.Since(start); d < idle-50*time.Millisecond {
		t.Fatalf("polled again after %v with events pending; a lazy poll's successor waits for the safety poll (%v)", d, idle)
	}
	if calls.Load() != 0 {
		t.Fatalf("pending asked %d times after a lazy poll, want none", calls.Load())
	}
	g.rows = 3
	g.HandleError(nil, false, nil) // the safety poll was as lazy: rest again
	go func() { time.Sleep(50 * time.Millisecond); signals <- struct{}{} }()
	start = time.Now()
	g.wait(context.Background())
	if d := time.Since(start); d > idle/2 {
		t.Fatalf("a signal of a type the consumer takes woke it after %v, want at once", d)
	}
	if g.lazyPoll {
		t.Fatal("a poll a signal started is not lazy")
	}
}
