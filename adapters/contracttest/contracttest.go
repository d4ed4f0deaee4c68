// Package contracttest holds one contract suite per port: the expectations every
// implementation of the port meets, whatever it stores in (memory, SQLite, PostgreSQL).
// A suite takes a factory for the implementation under test; tests/contracts_*_test.go
// run each suite on every adapter set. Add a suite here when a module's port gets a
// second implementation, and run it on all of them.
package contracttest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// at is the suites' clock: UTC with microseconds, what the databases keep.
func at(minutes int) time.Time {
	return time.Date(2026, 11, 21, 10, 0, 0, 123456000, time.UTC).Add(time.Duration(minutes) * time.Minute)
}

// wantKind fails unless err is a kernel error of kind (and, for Invalid, of field).
func wantKind(t *testing.T, err error, kind kernel.Kind, field string) {
	t.Helper()
	var ke *kernel.Error
	if !errors.As(err, &ke) || ke.Kind != kind || ke.Field != field {
		t.Fatalf("error %v: want kernel kind %d field %q", err, kind, field)
	}
}

// parallel runs fn n times at once and returns each run's error.
func parallel(n int, fn func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn(i)
		}()
	}
	close(start)
	wg.Wait()
	return errs
}

// addedOnce runs add n times at once (add(i) reports whether candidate i was stored:
// added, revoked, ...), fails on an error or unless exactly one was, and returns it.
func addedOnce(t *testing.T, n int, add func(i int) (bool, error)) int {
	t.Helper()
	added := make([]bool, n)
	for i, err := range parallel(n, func(i int) error {
		var err error
		added[i], err = add(i)
		return err
	}) {
		if err != nil {
			t.Fatalf("add %d: %v", i, err)
		}
	}
	won := -1
	for i, ok := range added {
		if ok {
			if won >= 0 {
				t.Fatalf("candidates %d and %d were both added", won, i)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatal("no candidate was added")
	}
	return won
}
