// Package contracttest holds one contract suite per port: the expectations every
// implementation of the port meets, whatever it stores in (SQLite, PostgreSQL).
// A suite takes a factory for the implementation under test; tests/contracts_*_test.go
// run each suite on both databases. Add a suite here when a module's port gets an
// implementation, and run it on all of them.
package contracttest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// References make the ids a module's records name: real rows of the owning modules,
// written through their adapters. Ids are unique per call,
// but NewEnrollment answers the same id for the same pair (one enrollment per pair).
type References struct {
	NewWorkspace  func(t *testing.T) string
	NewStudent    func(t *testing.T, workspaceID string) string
	NewCourse     func(t *testing.T, workspaceID string, lessons int) (courseID string, lessonIDs []string)
	NewEnrollment func(t *testing.T, workspaceID, studentID, courseID string) string
}

// oneWinner runs n racing adds and fails unless exactly one added; it returns which.
func oneWinner(t *testing.T, n int, add func(i int) (bool, error)) int {
	t.Helper()
	added := make([]bool, n)
	for i, err := range Parallel(n, func(i int) error {
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
				t.Fatalf("racers %d and %d both added", won, i)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatal("no racer added")
	}
	return won
}

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

// Parallel runs fn n times at once (released together) and returns each run's error;
// the component tests race requests with it too.
func Parallel(n int, fn func(i int) error) []error {
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

// wantEarliest checks a "since when do your facts count" answer over every workspace:
// after add stores a fact at the instant it returns, first answers that instant, or an
// earlier one the store held before (suites share their store across cases).
func wantEarliest(t *testing.T, first func(context.Context) (time.Time, bool, error), add func() time.Time) {
	t.Helper()
	ctx := context.Background()
	before, had, err := first(ctx)
	if err != nil {
		t.Fatalf("first before: %v", err)
	}
	want := add()
	if had && before.Before(want) {
		want = before
	}
	got, ok, err := first(ctx)
	if err != nil || !ok || !got.Equal(want) {
		t.Fatalf("first = %v, %v, %v; want %v", got, ok, err, want)
	}
}
