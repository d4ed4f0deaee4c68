package web

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"slices"

	"github.com/gofiber/fiber/v2"
)

// Listener serves one fiber app on one address between Start and Stop: Start binds
// (failing fast when the address is taken) and serves within Limits; Stop closes the
// listener, lets requests in flight finish within ctx and closes the connections that
// carry none (drainListener). With TLS set it serves HTTPS (and adds HSTS to every
// response); with Outer set, those layers wrap each connection in order (the PROXY
// protocol before TLS). Draining works the same: it watches the sockets beneath.
type Listener struct {
	Name   string
	Addr   string
	App    *fiber.App
	Limits Limits
	TLS    *tls.Config
	Outer  []func(net.Listener) net.Listener
	Logger *slog.Logger
	// Failed is called when the listener stops serving by itself (the process should stop).
	Failed func(err error)
	// Hangup, when set, is closed first on Stop: long-lived responses end (Hangup).
	Hangup *Hangup
	ln     *drainListener
}

// Start binds the address and serves in the background.
func (l *Listener) Start(context.Context) error {
	raw, err := net.Listen("tcp", l.Addr)
	if err != nil {
		return fmt.Errorf("%s listener on %s: %w", l.Name, l.Addr, err)
	}
	l.App.Server().CloseOnShutdown = true // responses while draining say Connection: close
	outer := l.Outer
	if l.TLS != nil {
		l.App.Server().Handler = withHSTS(l.App.Server().Handler)
		outer = append(slices.Clip(outer), TLSListener(l.TLS))
	}
	// The drain watches the connections above TLS and the PROXY header: a connection that
	// shook hands but sent no request is as unused as a plain one that sent nothing.
	l.ln = newDrainListener(layered(l.App, raw, l.Limits, outer))
	l.Logger.Info("listening", "listener", l.Name, "addr", l.ln.Addr().String(), "tls", l.TLS != nil)
	go func() {
		if err := l.App.Listener(l.ln); err != nil && !errors.Is(err, net.ErrClosed) {
			l.Logger.Error("listener stopped", "listener", l.Name, "error", err)
			if l.Failed != nil {
				l.Failed(err)
			}
		}
	}()
	return nil
}

// Stop drains the listener within ctx.
func (l *Listener) Stop(ctx context.Context) error {
	if l.ln == nil {
		return nil
	}
	if l.Hangup != nil {
		l.Hangup.Close()
	}
	return l.ln.shutdown(ctx, l.App)
}
