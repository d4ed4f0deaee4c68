package testenv

import (
	"os"
	"testing"
)

// serviceURL returns the URL in variable; without it the test is skipped (SkipSuite:
// announced, recorded for `make test`), and under CI (CI=true) it fails.
func serviceURL(t testing.TB, variable, service, example string) string {
	t.Helper()
	if url := os.Getenv(variable); url != "" {
		return url
	}
	SkipSuite(t, service, variable+" is not set", "set "+variable+" (e.g. "+example+")")
	return ""
}
