package tests

import (
	"encoding/json"
	"io"
	"regexp"
	"strings"
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

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// regexpAll returns the submatches of every match, joined by a space.
func regexpAll(s, pattern string) []string {
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(s, -1) {
		out = append(out, strings.Join(m[1:], " "))
	}
	return out
}
