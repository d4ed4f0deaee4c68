package tests

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"runtime"
	"testing"

	"github.com/valyala/fasthttp"

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

	send := func(handler fasthttp.RequestHandler, bearer, path string) testenv.Response {
		var req fasthttp.Request
		req.Header.SetMethod(http.MethodPost)
		req.SetRequestURI(path)
		req.Header.SetContentType("application/json")
		req.Header.Set("Content-Encoding", "gzip")
		req.Header.Set("Authorization", "Bearer "+bearer)
		req.SetBody(bomb.Bytes())
		var ctx fasthttp.RequestCtx
		ctx.Init(&req, rawRemote, nil)
		handler(&ctx)
		return testenv.Response{Status: ctx.Response.StatusCode(), Body: append([]byte(nil), ctx.Response.Body()...)}
	}
	public := newRawClient(env.Public.App, key)
	operator := newRawClient(env.Operator.App, testenv.AdminToken)
	for _, c := range []struct {
		name    string
		handler fasthttp.RequestHandler
		bearer  string
		path    string
	}{
		{"public", public.handler, key, "/api/v1/students"},
		{"operator, optional body", operator.handler, testenv.AdminToken, "/internal/v1/workspaces/" + ws + "/orders/" + order.ID + "/refunds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r := send(c.handler, c.bearer, c.path)
			runtime.ReadMemStats(&after)
			expectInvalid(t, r, "Content-Encoding")
			if grown := after.TotalAlloc - before.TotalAlloc; grown > 20<<20 {
				t.Fatalf("%d MiB allocated for a %d KiB request", grown>>20, bomb.Len()>>10)
			}
		})
	}
}
