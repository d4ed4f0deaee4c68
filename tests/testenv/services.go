package testenv

import (
	"fmt"
	"os"
	"sync"
	"testing"
)

// warned remembers which services' skips were announced (once per run each).
var warned sync.Map

// serviceURL returns the URL in variable; without it the test is skipped, announced once
// loudly on stderr, and under CI (CI=true) it fails: every suite must run there.
func serviceURL(t testing.TB, variable, service, example string) string {
	t.Helper()
	url := os.Getenv(variable)
	if url != "" {
		return url
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s is not set under CI: the %s suites must run", variable, service)
	}
	if _, seen := warned.LoadOrStore(variable, true); !seen {
		fmt.Fprintf(os.Stderr, "\n*** %s suites SKIPPED: set %s (e.g. %s) to run them ***\n\n", service, variable, example)
	}
	t.Skipf("%s SKIPPED: %s is not set", service, variable)
	return ""
}
