package web_test

import (
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"

	"github.com/gofiber/fiber/v2"
	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// What the HTTP ports hand to the application must stay what it was after the request:
// fiber's zero-copy path parameters point into the connection's buffer, which its next
// request overwrites, so an adapter or cache that keeps one would see another request's
// value (web.NewApp sets Immutable). Two requests on one keep-alive connection.
func TestRequestValuesOutliveTheirRequest(t *testing.T) {
	app := web.NewApp("test", slog.New(slog.DiscardHandler))
	var kept []string
	app.Get("/w/:id", func(c *fiber.Ctx) error {
		kept = append(kept, c.Params("id"))
		return c.SendStatus(http.StatusNoContent)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	t.Cleanup(func() { _ = app.Shutdown() })

	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	for _, id := range []string{"alpha", "bravo"} {
		resp, err := client.Get("http://" + ln.Addr().String() + "/w/" + id)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	if diff := cmp.Diff([]string{"alpha", "bravo"}, kept); diff != "" {
		t.Errorf("path parameters kept after their requests (-want +got):\n%s", diff)
	}
}
