package v1

import (
	"time"

	"github.com/gofiber/fiber/v2"
)

// Pacer says how long a request that produces events should wait first
// (platform.Pacer: 0 while the event pipeline keeps up).
type Pacer interface {
	Delay() time.Duration
}

// Pace is the guard that holds back requests that change data while the event pipeline
// lags: they wait a moment before they run, so that on shared cores the producers yield
// to the consumers and the backlog stays bounded. Reads are never held back.
func Pace(p Pacer) fiber.Handler {
	return func(c *fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		if d := p.Delay(); d > 0 {
			time.Sleep(d)
		}
		return c.Next()
	}
}
