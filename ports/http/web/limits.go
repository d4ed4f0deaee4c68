package web

import (
	"net"
	"time"

	"github.com/gofiber/fiber/v2"
)

// Limits bound what clients can hold on a listener. fasthttp serves each connection
// with one worker and one request at a time, so MaxConns also bounds the requests in
// progress.
type Limits struct {
	MaxConnsPerIP  int           // open connections from one client address (IPv6: one /64)
	MaxConns       int           // open connections in total, idle ones included
	IdleTimeout    time.Duration // a keep-alive connection waiting for its next request
	ReadTimeout    time.Duration // reading one request, headers and body (a silent new connection too)
	MaxHeaderBytes int           // the request line and headers together
}

// DefaultLimits are safe for a public listener without a proxy in front: a client
// behind one address gets 64 connections, far more than browsers (6) or HTTP client
// pools use, and a proxy in front should set its own or raise this one.
func DefaultLimits() Limits {
	return Limits{MaxConnsPerIP: 64, MaxConns: 4096, IdleTimeout: 60 * time.Second, ReadTimeout: 15 * time.Second, MaxHeaderBytes: 16 * 1024}
}

// Serve serves app on ln within l: connections beyond the caps are answered in the
// envelope and closed before fasthttp sees them (see LimitConns), and the server's
// own bounds are set. fasthttp's worker cap is only a backstop, with room for workers
// that have closed their connection but not yet returned.
func Serve(app *fiber.App, ln net.Listener, l Limits, outer ...func(net.Listener) net.Listener) error {
	return app.Listener(layered(app, ln, l, outer))
}

// layered sets the server's bounds and stacks the listener: the connection limits on the
// sockets, then the outer layers in order (the PROXY protocol, TLS). The limits count
// sockets at accept, before any byte is read, so a slow handshake holds up nobody.
func layered(app *fiber.App, ln net.Listener, l Limits, outer []func(net.Listener) net.Listener) net.Listener {
	server := app.Server()
	server.Concurrency = 2 * l.MaxConns
	server.IdleTimeout = l.IdleTimeout
	server.ReadTimeout = l.ReadTimeout
	server.ReadBufferSize = l.MaxHeaderBytes
	served := LimitConns(ln, l.MaxConnsPerIP, l.MaxConns)
	for _, wrap := range outer {
		served = wrap(served)
	}
	return served
}
