package v1

import (
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

type countingPacer struct {
	delay time.Duration
	asked atomic.Int32
}

func (p *countingPacer) Delay() time.Duration { p.asked.Add(1); return p.delay }

func TestPaceHoldsBackWritesOnly(t *testing.T) {
	p := &countingPacer{delay: 60 * time.Millisecond}
	app := fiber.New()
	app.Use(Pace(p))
	app.All("/x", func(c *fiber.Ctx) error { return c.SendStatus(fiber.StatusNoContent) })
	for _, m := range []string{fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions} {
		if _, err := app.Test(httptest.NewRequest(m, "/x", nil)); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.asked.Load(); n != 0 {
		t.Fatalf("reads asked the pacer %d times; they are never held back", n)
	}
	for _, m := range []string{fiber.MethodPost, fiber.MethodPatch, fiber.MethodPut, fiber.MethodDelete} {
		start := time.Now()
		resp, err := app.Test(httptest.NewRequest(m, "/x", nil))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != fiber.StatusNoContent {
			t.Fatalf("%s: status %d", m, resp.StatusCode)
		}
		if held := time.Since(start); held < p.delay {
			t.Fatalf("%s ran after %v, want it held back %v", m, held, p.delay)
		}
	}
	if n := p.asked.Load(); n != 4 {
		t.Fatalf("writes asked the pacer %d times, want 4", n)
	}
}
