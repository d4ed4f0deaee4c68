package tests

import (
	"regexp"
	"testing"
)

func regexpFind(t *testing.T, pattern, s string) string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("%s not found in %s", pattern, s)
	}
	return m[1]
}
