package web

import (
	"bytes"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/valyala/fasthttp"
)

// Hangup ends long-lived responses (event streams, long polls) when the listener stops:
// a graceful stop waits for responses in flight, and these would hold it up to their end.
// Listener.Stop closes it before draining; a stream ends at once (its client reconnects
// elsewhere and resumes from its cursor) and a long poll answers what it has.
type Hangup struct {
	once sync.Once
	ch   chan struct{}
}

// NewHangup builds an open hangup.
func NewHangup() *Hangup { return &Hangup{ch: make(chan struct{})} }

// Done is closed once the listener stops.
func (h *Hangup) Done() <-chan struct{} { return h.ch }

// Close hangs up every long-lived response; later calls do nothing.
func (h *Hangup) Close() { h.once.Do(func() { close(h.ch) }) }

// AllowLongWrites gives responses under pathPrefix a write deadline of d instead of the
// app's WriteTimeout (30 s), which fasthttp sets once for the whole response: a stream
// would be cut when it passes. The rest keeps the app's deadline.
func AllowLongWrites(app *fiber.App, pathPrefix string, d time.Duration) {
	server := app.Server()
	next := server.HeaderReceived
	prefix := []byte(pathPrefix)
	server.HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		var cfg fasthttp.RequestConfig
		if next != nil {
			cfg = next(h)
		}
		if bytes.HasPrefix(h.RequestURI(), prefix) {
			cfg.WriteTimeout = d
		}
		return cfg
	}
}
