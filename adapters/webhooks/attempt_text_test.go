package webhooks

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Attempt errors are shown to people: they name the failure, never an address of our
// network (the resolver's, or what a name resolved to).
func TestAttemptErrorsDoNotCarryAddresses(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: connection refused
	res := NewSender(Guard{AllowPrivate: true}, 1).Send(context.Background(), Message{URL: "http://" + addr + "/hook", Body: []byte(`{}`)}, time.Now())
	if res.Error == "" || strings.Contains(res.Error, "127.0.0.1") || !strings.Contains(res.Error, "connection refused") {
		t.Errorf("refused connection: %q, want the failure without the address", res.Error)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{&url.Error{Op: "Post", URL: "https://hooks.example/x", Err: &net.OpError{Op: "dial", Net: "tcp",
			Err: &net.DNSError{Name: "hooks.example", Server: "10.0.0.2:53", Err: "no such host", IsNotFound: true}}},
			"DNS lookup of hooks.example failed: no such host"},
		{&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("10.0.0.1"), Port: 443},
			Err: fmt.Errorf("connect: no route to host")}, "connect: no route to host"},
		{&net.OpError{Op: "read", Net: "tcp", Addr: &net.TCPAddr{IP: net.ParseIP("fd00::1"), Port: 443},
			Err: fmt.Errorf("read tcp [fd00::2]:51000->[fd00::1]:443: connection reset by peer")}, "read: read tcp [address]->[address]: connection reset by peer"},
		{fmt.Errorf("dial tcp 10.0.0.1:443: i/o timeout"), "dial tcp [address]: i/o timeout"},
	} {
		got := networkError(c.err)
		if got != c.want {
			t.Errorf("%v: %q, want %q", c.err, got, c.want)
		}
	}
}

// A receiver's bytes reach the attempt log as text both databases store: valid UTF-8,
// no NUL or other control characters (PostgreSQL refuses NUL and invalid UTF-8 in text).
func TestAttemptTextIsStorable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "https://elsewhere.example/\xff\xfe")
		w.WriteHeader(http.StatusFound)
		_, _ = w.Write([]byte("moved\x00 \xc3\x28 here\x1b[31m\tok\n"))
	}))
	defer srv.Close()
	res := NewSender(Guard{AllowPrivate: true}, 1).Send(context.Background(), Message{URL: srv.URL, Body: []byte(`{}`)}, time.Now())
	for name, s := range map[string]string{"response": res.Response, "error": res.Error} {
		if !utf8.ValidString(s) || strings.ContainsAny(s, "\x00\x1b") {
			t.Errorf("%s %q is not storable text", name, s)
		}
	}
	if res.Response != "moved \uFFFD( here[31m\tok\n" {
		t.Errorf("response %q", res.Response)
	}
}
