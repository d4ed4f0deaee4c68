package tests

import (
	"encoding/json"
	"io"
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

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
