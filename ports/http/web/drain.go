package web

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
)

// drainListener remembers the accepted connections that have not sent a byte yet. fasthttp
// counts a connection waiting for its first request as active, so a graceful stop would
// wait for its read timeout (15 s) whenever a client or a proxy opened one ahead of need;
// stopping closes those instead: no request was sent on them. Only once they are
// unusedGrace old: a connection accepted a moment ago may carry a request fasthttp has not
// read yet, and closing it reset that request (the container's drain test saw 2 of 13,511
// requests reset so).
type drainListener struct {
	net.Listener
	mu     sync.Mutex
	unused map[*drainConn]struct{}
	closed sync.Once
	err    error
}

// Close closes the listener once; fasthttp's stop closes it again, harmlessly.
func (l *drainListener) Close() error {
	l.closed.Do(func() { l.err = l.Listener.Close() })
	return l.err
}

func newDrainListener(ln net.Listener) *drainListener {
	return &drainListener{Listener: ln, unused: map[*drainConn]struct{}{}}
}

func (l *drainListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	dc := &drainConn{Conn: c, l: l, accepted: time.Now()}
	l.mu.Lock()
	l.unused[dc] = struct{}{}
	l.mu.Unlock()
	if tc, ok := c.(*tls.Conn); ok {
		return &drainTLSConn{drainConn: dc, tls: tc}, nil
	}
	return dc, nil
}

// drainTLSConn keeps a TLS connection's state visible to fasthttp (ctx.IsTLS,
// TLSConnectionState) through the drain's wrapper.
type drainTLSConn struct {
	*drainConn
	tls *tls.Conn
}

func (c *drainTLSConn) Handshake() error                     { return c.tls.Handshake() }
func (c *drainTLSConn) ConnectionState() tls.ConnectionState { return c.tls.ConnectionState() }

// unusedGrace is how long a connection that sent nothing yet is left alone.
const unusedGrace = 250 * time.Millisecond

// closeUnused closes the connections that never sent a byte since their grace.
func (l *drainListener) closeUnused() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for c := range l.unused {
		if time.Since(c.accepted) < unusedGrace {
			continue
		}
		_ = c.Conn.Close()
		delete(l.unused, c)
	}
}

// shutdown stops app gracefully (requests in flight finish, within ctx) and closes the
// connections that carry none. The listener is closed first: fasthttp's stop marks every
// response "Connection: close" and only then closes its listeners, so a client that
// reconnected at once (a few microseconds; milliseconds on a loaded machine, where the
// container's drain test lost a request so) sat in the accept queue when the listener
// closed, and the kernel reset its request. Closed first, the reconnect is refused: no
// request sent on it.
func (l *drainListener) shutdown(ctx context.Context, app *fiber.App) error {
	if err := l.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- app.ShutdownWithContext(ctx) }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		l.closeUnused()
		select {
		case err := <-done:
			return err
		case <-tick.C:
		}
	}
}

type drainConn struct {
	net.Conn
	l        *drainListener
	accepted time.Time
	used     atomic.Bool
}

func (c *drainConn) Read(b []byte) (int, error) {
	n, err := c.Conn.Read(b)
	if n > 0 && !c.used.Load() {
		c.used.Store(true)
		c.forget()
	}
	return n, err
}

func (c *drainConn) Close() error {
	c.forget()
	return c.Conn.Close()
}

func (c *drainConn) forget() {
	c.l.mu.Lock()
	delete(c.l.unused, c)
	c.l.mu.Unlock()
}
