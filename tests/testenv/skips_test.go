package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A skipped suite reaches the file `make test` lists after the run, once per suite
// however many tests skip it (go test ./... shows nothing of a passing package).
func TestSkipSuiteRecordsTheSkipOnceForMakeTest(t *testing.T) {
	file := filepath.Join(t.TempDir(), "skips")
	t.Setenv(SkipsFileVar, file) // process environment: this test cannot be parallel
	t.Setenv("CI", "")
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) { SkipSuite(t, "Example", "nothing to run it on", "set EXAMPLE_URL") })
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("the skip was not recorded: %v", err)
	}
	want := "Example suites SKIPPED: nothing to run it on; to run them: set EXAMPLE_URL\n"
	if diff := cmp.Diff(want, string(raw)); diff != "" {
		t.Errorf("recorded skips (-want +got):\n%s", diff)
	}
}
