package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestVersionPrintsTheBuild(t *testing.T) {
	var out bytes.Buffer
	if code := run([]string{"version"}, &out, &out); code != 0 || !strings.HasPrefix(out.String(), "creatorapi dev (revision ") {
		t.Fatalf("exit %d: %q", code, out.String())
	}
}

// healthcheck exits 0 on 200 and 1 otherwise, and asks CREATORAPI_HTTP_ADDR over loopback.
func TestHealthcheckFollowsReadyz(t *testing.T) {
	status := http.StatusOK
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			http.NotFound(w, r)
			return
		}
		w.WriteHeader(status)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	cli := func() int {
		var out bytes.Buffer
		c := &CLI{stdout: &out, stderr: &out, getenv: func(k string) string {
			if k == "CREATORAPI_HTTP_ADDR" {
				return ":" + port
			}
			return ""
		}}
		if err := c.healthcheck(nil); err != nil {
			return 1
		}
		return 0
	}
	if code := cli(); code != 0 {
		t.Fatalf("ready: exit %d", code)
	}
	status = http.StatusServiceUnavailable
	if code := cli(); code != 1 {
		t.Fatalf("unready: exit %d", code)
	}
}

func TestLoopbackURL(t *testing.T) {
	for addr, want := range map[string]string{
		":8080": "http://127.0.0.1:8080", "0.0.0.0:8080": "http://127.0.0.1:8080", "[::]:8080": "http://[::1]:8080",
		"10.0.0.5:9000": "http://10.0.0.5:9000", "[fd00::1]:80": "http://[fd00::1]:80",
	} {
		if got := loopbackURL(addr); got != want {
			t.Errorf("%s: %s, want %s", addr, got, want)
		}
	}
}
