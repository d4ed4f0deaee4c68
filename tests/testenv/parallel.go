package testenv

import (
	"strings"
	"sync"
	"testing"
)

// Component tests spend most of their time waiting (round trips to the database, event
// polling, leases), so they run side by side by default: EachDatabase marks its caller
// and its two runs parallel, Start marks a top-level test parallel. Each run has its own
// database (a SQLite file or a PostgreSQL schema), data folder, ports (PickFreePort),
// Redis prefix and NATS stream prefix, so parallel runs share nothing but the process.
// A test that cannot keep to that (t.Setenv, package state, fixed ports, or a load that
// needs the machine alone) calls Serial first, with its reason.

// mode is how a test was marked; marks remembers it per test, because EachDatabase and
// Start may both run in one test and t.Parallel panics when called twice.
type mode int

const (
	parallel mode = iota + 1
	serial
	alone // in the serial phase, its runs side by side
)

var marks sync.Map // *testing.T -> mode

// Parallel marks t parallel unless it was marked already (parallel or Serial). Tests
// that need it without EachDatabase or Start call it instead of t.Parallel.
func Parallel(t testing.TB) {
	tt, ok := t.(*testing.T)
	if !ok {
		return
	}
	if _, marked := marks.LoadOrStore(tt, parallel); marked {
		return
	}
	tt.Cleanup(func() { marks.Delete(tt) })
	tt.Parallel()
}

// Serial keeps t (and the runs EachDatabase and EachTransport start under it) out of the
// parallel phase; why says what it shares, for the reader. Call it first in the test.
func Serial(t *testing.T, why string) {
	t.Helper()
	markOutOfParallelPhase(t, serial, "Serial", why)
}

// Alone keeps t out of the parallel phase like Serial, but runs the runs EachDatabase and
// EachTransport start under it side by side: for light checks that need the machine free
// of the parallel phase's load, not of each other (pacing rates, a long poll's latency).
func Alone(t *testing.T, why string) {
	t.Helper()
	markOutOfParallelPhase(t, alone, "Alone", why)
}

func markOutOfParallelPhase(t *testing.T, m mode, name, why string) {
	t.Helper()
	if why == "" {
		t.Fatalf("testenv.%s needs the reason the test cannot run in parallel", name)
	}
	if got, marked := marks.LoadOrStore(t, m); marked && got != m {
		t.Fatalf("testenv.%s called after the test was marked otherwise: call it first", name)
	}
	t.Cleanup(func() { marks.Delete(t) })
}

// isSerial tells whether t was marked Serial or Alone: kept out of the parallel phase.
func isSerial(t testing.TB) bool {
	m, _ := marks.Load(t)
	return m == serial || m == alone
}

// parallelTopLevel marks t parallel when it is a top-level test. A subtest is left
// alone: its siblings may rely on running in order (EachDatabase marks its own runs).
func parallelTopLevel(t testing.TB) {
	if !strings.Contains(t.Name(), "/") {
		Parallel(t)
	}
}

// run starts fn as a subtest named name, parallel unless t is Serial (then the subtest
// is Serial too, so that runs nested under it stay in order). Under Alone the subtests
// are parallel: they run at once, side by side, while the serial phase waits for them.
func run(t *testing.T, name string, fn func(t *testing.T)) {
	m, _ := marks.Load(t)
	serialParent := m == serial
	t.Run(name, func(t *testing.T) {
		if serialParent {
			Serial(t, "its parent test is serial")
		} else {
			Parallel(t)
		}
		fn(t)
	})
}
