package tests

import (
	"bufio"
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Ambiguous framing is how requests are smuggled past a proxy that reads the body's
// length differently: refused with 400, and the connection is closed so that nothing
// after the first body is taken for a request. Raw TCP against the real listener.
func TestHTTPAmbiguousFramingRefused(t *testing.T) {
	addr := startListening(t, web.DefaultLimits())
	// The second request hides in what one reading takes for the first body.
	smuggled := "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"
	cases := []struct{ name, raw string }{
		{"conflicting Content-Length", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 40\r\n\r\n{}" + smuggled},
		{"repeated Content-Length", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}" + smuggled},
		{"Content-Length with Transfer-Encoding", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled},
		{"Transfer-Encoding with Content-Length after it", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\ntransfer-encoding: chunked\r\ncontent-length: 4\r\n\r\n0\r\n\r\n" + smuggled},
		{"Transfer-Encoding other than chunked", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + smuggled},
		{"Transfer-Encoding twice", "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled},
		{"operator listener too", "POST /internal/v1/workspaces HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}" + smuggled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			conn := dial(t, addr)
			r := bufio.NewReader(conn)
			resp := exchange(t, conn, r, c.raw)
			resp.ExpectError(t, http.StatusBadRequest, "invalid_request")
			if resp.Header.Get("Connection") != "close" {
				t.Fatalf("Connection %q, want close", resp.Header.Get("Connection"))
			}
			expectClosed(t, conn, r, 2e9)
		})
	}
	t.Run("unambiguous requests still served", func(t *testing.T) {
		conn := dial(t, addr)
		r := bufio.NewReader(conn)
		exchange(t, conn, r, "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nContent-Length: 2\r\n\r\n{}").
			ExpectError(t, http.StatusUnauthorized, "unauthorized")
		exchange(t, conn, r, "POST /api/v1/students HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n").
			ExpectError(t, http.StatusUnauthorized, "unauthorized")
		exchange(t, conn, r, healthz).Expect(t, http.StatusOK)
	})
}
