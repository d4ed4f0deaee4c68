package contracttest

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// diffOptions make cmp.Diff as strict as the round trips need: domain aggregates keep
// their state in unexported fields, and an instant must come back in the same location
// (UTC), not only at the same moment.
var diffOptions = cmp.Options{
	cmp.Exporter(func(reflect.Type) bool { return true }),
	cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) && a.Location().String() == b.Location().String() }),
}

// Diff is cmp.Diff(want, got) with the suites' options: empty when they match.
func Diff(want, got any) string { return cmp.Diff(want, got, diffOptions) }

// mustMatch fails t with the difference when got is not want; what names the value.
func mustMatch(t *testing.T, what string, want, got any) {
	t.Helper()
	if d := Diff(want, got); d != "" {
		t.Fatalf("%s differs (-want +got):\n%s", what, d)
	}
}
