package tests

import (
	"bufio"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// One client held 3,000 idle connections for 120 s: connections per client address and
// in total, idle time, read time and header size are bounded (CREATORAPI_HTTP_*).
// Each limit is set low here and probed over real loopback connections.
func TestHTTPConnectionsPerAddressCapped(t *testing.T) {
	const perAddress = 5
	limits := web.DefaultLimits()
	limits.MaxConnsPerIP = perAddress
	addr := startListening(t, limits)

	type client struct {
		conn net.Conn
		r    *bufio.Reader
	}
	var held []client
	for i := 0; i < perAddress; i++ {
		c := dial(t, addr)
		held = append(held, client{c, bufio.NewReader(c)})
		exchange(t, c, held[i].r, healthz).Expect(t, http.StatusOK)
	}
	for i := 0; i < 5; i++ { // cap + 5: every extra one refused, in the envelope, and closed
		c := dial(t, addr)
		r := bufio.NewReader(c)
		exchange(t, c, r, healthz).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		expectClosed(t, c, r, 2*time.Second)
	}
	// The held connections still work, and a closed one frees its slot.
	exchange(t, held[0].conn, held[0].r, healthz).Expect(t, http.StatusOK)
	held[1].conn.Close()
	deadline := time.Now().Add(3 * time.Second)
	for {
		c := dial(t, addr)
		r := bufio.NewReader(c)
		resp := exchange(t, c, r, healthz)
		if resp.Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("slot not freed after a close: %d %s", resp.Status, resp.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestHTTPConnectionsInTotalCapped(t *testing.T) {
	const total = 4
	limits := web.DefaultLimits()
	limits.MaxConns = total
	addr := startListening(t, limits)
	for i := 0; i < total; i++ {
		c := dial(t, addr)
		exchange(t, c, bufio.NewReader(c), healthz).Expect(t, http.StatusOK)
	}
	for i := 0; i < 3; i++ {
		c := dial(t, addr)
		r := bufio.NewReader(c)
		exchange(t, c, r, healthz).ExpectError(t, http.StatusServiceUnavailable, "internal_error")
		expectClosed(t, c, r, 2*time.Second)
	}
}

func TestHTTPIdleAndReadTimeouts(t *testing.T) {
	limits := web.DefaultLimits()
	limits.IdleTimeout = 500 * time.Millisecond
	limits.ReadTimeout = 700 * time.Millisecond
	addr := startListening(t, limits)

	t.Run("idle keep-alive connection closed", func(t *testing.T) {
		c := dial(t, addr)
		r := bufio.NewReader(c)
		exchange(t, c, r, healthz).Expect(t, http.StatusOK)
		start := time.Now()
		expectClosed(t, c, r, 3*time.Second)
		if waited := time.Since(start); waited < 400*time.Millisecond {
			t.Fatalf("closed after %s, before the idle timeout", waited)
		}
	})
	t.Run("silent connection cut off", func(t *testing.T) {
		c := dial(t, addr)
		expectCutOff(t, c, bufio.NewReader(c))
	})
	t.Run("slow headers cut off", func(t *testing.T) {
		c := dial(t, addr)
		_, _ = c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: test\r\n")) // never finished
		expectCutOff(t, c, bufio.NewReader(c))
	})
}

// expectCutOff fails unless the server, within 3 s, closes c, after answering an
// error in the envelope if it answers at all (fasthttp sends 408 on a first request).
func expectCutOff(t *testing.T, c net.Conn, r *bufio.Reader) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
	if _, err := r.Peek(1); err == nil {
		resp := readResponse(t, r)
		if resp.Status < 400 {
			t.Fatalf("unfinished request answered %d", resp.Status)
		}
		resp.ErrorCode(t)
	}
	expectClosed(t, c, r, 3*time.Second)
}

func TestHTTPHeaderSizeCapped(t *testing.T) {
	limits := web.DefaultLimits()
	limits.MaxHeaderBytes = 8 * 1024
	addr := startListening(t, limits)

	c := dial(t, addr)
	r := bufio.NewReader(c)
	big := "GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: " + strings.Repeat("a", 10*1024) + "\r\n\r\n"
	exchange(t, c, r, big).ExpectError(t, http.StatusRequestHeaderFieldsTooLarge, "invalid_request")
	expectClosed(t, c, r, 2*time.Second)

	c = dial(t, addr)
	r = bufio.NewReader(c)
	fits := "GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: " + strings.Repeat("a", 6*1024) + "\r\n\r\n"
	exchange(t, c, r, fits).Expect(t, http.StatusOK)
}
