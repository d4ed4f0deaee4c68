package tests

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"runtime"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A compressed body is inflated by fiber's c.Body() without any bound: 100 KiB of gzip
// became 100 MiB in memory before the JSON decoder saw it. Compressed request bodies are
// refused, naming Content-Encoding, before anything inflates them.
func TestCompressedBodiesRefusedUninflated(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	ws := env.CreateWorkspace(t, "Academy")
	key := env.LearningKey(t, ws)
	order := env.PlaceOrder(t, ws, env.CreateStudent(t, ws, "buyer@example.com"), "usd",
		testenv.OrderItem{CourseID: env.CreatePublishedCourse(t, ws, "Go"), Amount: 100})

	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zero := make([]byte, 1<<20)
	for i := 0; i < 100; i++ { // 100 MiB of zeros
		_, _ = zw.Write(zero)
	}
	_ = zw.Close()

	public := testenv.NewRawClient(env.Public.App, key)
	operator := testenv.NewRawClient(env.Operator.App, testenv.AdminToken)
	for _, c := range []struct {
		name   string
		client testenv.RawClient
		path   string
	}{
		{"public", public, "/api/v1/students"},
		{"operator, optional body", operator, "/internal/v1/workspaces/" + ws + "/orders/" + order.ID + "/refunds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := c.client.Do(http.MethodPost, c.path, bomb.Bytes(), "application/json", "Content-Encoding", "gzip")
			runtime.ReadMemStats(&after)
			expectInvalid(t, r, "Content-Encoding")
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 20<<20 {
				t.Fatalf("%d MiB allocated for a %d KiB request", grown>>20, bomb.Len()>>10)
			}
		})
	}
}
