package main

import (
	"net"

	"github.com/gofiber/fiber/v2"
)

// startBare serves the baseline: a bare fiber app answering a small JSON object,
// with no middleware, database or authentication.
func startBare() (addr string, stop func(), err error) {
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.Get("/bare", func(c *fiber.Ctx) error {
		return c.JSON(fiber.Map{"status": "ok", "service": "bare"})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	go func() { _ = app.Listener(ln) }()
	return ln.Addr().String(), func() { _ = app.Shutdown() }, nil
}
