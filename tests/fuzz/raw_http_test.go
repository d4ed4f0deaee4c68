package fuzz

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/ports/http/web"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// FuzzRawHTTP writes arbitrary bytes to a real loopback listener of the public app
// (served through web.Serve, as in production) and reads what comes back: framing and
// parser errors must be answered in the envelope, never with a 5xx, and the answer
// must be well-formed HTTP. The database plays no part here: SQLite only.
func FuzzRawHTTP(f *testing.F) {
	for _, seed := range []string{
		"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /api/v1/courses?limit=1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer svc_x\r\n\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}GET /healthz HTTP/1.1\r\n\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
		"POST /api/v1/students HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
		"GET /api/v1/courses/\xff\x00 HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET http://other/healthz HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /healthz HTTP/1.0\r\n\r\n",
		"get /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: x\r\nX: " + strings.Repeat("a", 20000) + "\r\n\r\n",
		"GET /healthz HTTP/1.1\r\n Host: x\r\n\r\n",
		"\r\n\r\nGET /healthz HTTP/1.1\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /readyz HTTP/1.1\r\nHost: x\r\n\r\n",
		"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
	} {
		f.Add([]byte(seed))
	}
	env := testenv.Start(f, testenv.NewSQLiteURL(f))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	limits := web.DefaultLimits()
	limits.MaxConnsPerIP = 100_000 // many short connections in a row; the caps have their own tests
	limits.ReadTimeout = time.Second
	go func() { _ = web.Serve(env.Public.App, ln, limits) }()
	f.Cleanup(func() { _ = env.Public.App.Shutdown() })
	addr := ln.Addr().String()

	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := net.DialTimeout("tcp", addr, 2*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		go func() {
			_, _ = c.Write(raw)
			_ = c.(*net.TCPConn).CloseWrite() // the server sees the end of the input
		}()
		r := bufio.NewReader(c)
		if _, err := r.Peek(1); err != nil {
			return // closed without an answer: allowed for input that is not HTTP at all
		}
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatalf("input %q: the answer is not HTTP: %v", raw, err)
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("input %q: status %d", raw, resp.StatusCode)
		}
		if resp.StatusCode < 400 {
			return
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) { // a HEAD's answer has no body to read
			t.Fatalf("input %q: reading the answer: %v", raw, err)
		}
		if len(body) == 0 {
			return
		}
		var e struct {
			Error *struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(body, &e) != nil || e.Error == nil || !knownCodes[e.Error.Code] || e.Error.Message == "" {
			t.Fatalf("input %q: status %d without the envelope: %q", raw, resp.StatusCode, body)
		}
	})
}
