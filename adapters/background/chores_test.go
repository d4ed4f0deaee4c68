package background

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// A chore logs what it did and its errors, and stays quiet when idle; Stop runs it once more.
func TestChoresLogWorkAndErrorsNotIdleRuns(t *testing.T) {
	var buf bytes.Buffer
	chore := Chores(slog.New(slog.NewTextHandler(&buf, nil)))
	results := []struct {
		n   int
		err error
	}{{0, nil}, {3, nil}, {0, errors.New("database gone")}}
	for _, r := range results {
		named := chore("prune", time.Hour, func(context.Context) (int, error) { return r.n, r.err })
		if named.Name != "prune" {
			t.Fatalf("name %q", named.Name)
		}
		if err := named.Worker.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		if err := named.Worker.Stop(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "level=INFO msg=prune rows=3") ||
		!strings.Contains(lines[1], `level=WARN msg=prune error="database gone"`) {
		t.Fatalf("log:\n%s", buf.String())
	}
}
