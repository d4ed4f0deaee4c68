package tests

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/ports/http/web"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// startListening starts the service with its real listeners (compose.Listen, as serve
// runs them) within limits, on free loopback ports, and returns the public address.
func startListening(t *testing.T, limits web.Limits) string {
	t.Helper()
	public, admin := testenv.FreeAddr(t), testenv.FreeAddr(t)
	testenv.Start(t, testenv.NewSQLiteURL(t),
		fx.Decorate(func(cfg compose.Config) compose.Config {
			cfg.HTTPAddr, cfg.AdminAddr, cfg.HTTPLimits = public, admin, limits
			return cfg
		}),
		compose.Listen(),
	)
	return public
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// exchange writes raw and reads one response (body included) from c.
func exchange(t *testing.T, c net.Conn, r *bufio.Reader, raw string) testenv.Response {
	t.Helper()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatalf("write: %v", err)
	}
	return readResponse(t, r)
}

func readResponse(t *testing.T, r *bufio.Reader) testenv.Response {
	t.Helper()
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	defer resp.Body.Close()
	if resp.Close { // net/http takes "Connection: close" out of the header
		resp.Header.Set("Connection", "close")
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	return testenv.Response{Status: resp.StatusCode, Header: resp.Header, Body: body}
}

// expectClosed fails unless the server closes c within wait (nothing more to read).
func expectClosed(t *testing.T, c net.Conn, r *bufio.Reader, wait time.Duration) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(wait))
	b, err := r.ReadByte()
	switch {
	case err == nil:
		t.Fatalf("connection still open: read %q", b)
	case errors.Is(err, io.EOF), errors.Is(err, syscall.ECONNRESET):
	case errors.Is(err, os.ErrDeadlineExceeded):
		t.Fatalf("connection still open after %s", wait)
	default:
		t.Fatalf("read: %v", err)
	}
}

const healthz = "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
