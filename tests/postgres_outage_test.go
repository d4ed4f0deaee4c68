package tests

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// PostgreSQL going away: requests answer 500 internal_error in the envelope with a
// Retry-After of a few seconds, promptly (the proxy drops connections as a dying server
// does), and succeed again once it is back.
func TestPostgresOutageAnswersRetryAfter(t *testing.T) {
	env, proxy := startBehindProxy(t)
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKey(t, ws, "read:students", "write:students")
	api := env.API(key)
	api.Post(t, "/api/v1/students", map[string]any{"email": "before@example.com"}).Expect(t, http.StatusCreated)

	proxy.Cut()
	for i, req := range []func() testenv.Response{
		func() testenv.Response { return api.Get(t, "/api/v1/students") },
		func() testenv.Response {
			return api.Post(t, "/api/v1/students", map[string]any{"email": "during@example.com"})
		},
	} {
		began := time.Now()
		r := req()
		took := time.Since(began)
		r.ExpectError(t, http.StatusInternalServerError, "internal_error")
		wait, err := strconv.Atoi(r.Header.Get("Retry-After"))
		if err != nil || wait < 1 || wait > 30 {
			t.Fatalf("request %d: Retry-After %q, want a few seconds", i, r.Header.Get("Retry-After"))
		}
		if took > 5*time.Second {
			t.Fatalf("request %d took %s with PostgreSQL away", i, took)
		}
		t.Logf("request %d answered %d with Retry-After %d in %s", i, r.Status, wait, took.Round(time.Millisecond))
	}
	env.API("").Get(t, "/readyz").Expect(t, http.StatusServiceUnavailable)

	proxy.Restore()
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := api.Post(t, "/api/v1/students", map[string]any{"email": "after@example.com"})
		if r.Status == http.StatusCreated {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %d 10 s after PostgreSQL came back: %s", r.Status, r.Body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	api.Get(t, "/api/v1/students").Expect(t, http.StatusOK)
}

// A PostgreSQL that stops answering without closing connections (a partition): a request
// ends in 500 internal_error with Retry-After after connect_timeout (5 s), never hangs.
func TestSilentPostgresAnswersWithinTheTimeout(t *testing.T) {
	env, proxy := startBehindProxy(t)
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKey(t, ws, "read:students")
	api := env.API(key)
	api.Get(t, "/api/v1/students").Expect(t, http.StatusOK)

	proxy.Blackhole()
	began := time.Now()
	r := api.Get(t, "/api/v1/students")
	took := time.Since(began)
	r.ExpectError(t, http.StatusInternalServerError, "internal_error")
	if r.Header.Get("Retry-After") != "5" {
		t.Errorf("Retry-After %q, want 5", r.Header.Get("Retry-After"))
	}
	t.Logf("answered %d after %s with PostgreSQL silent", r.Status, took.Round(time.Millisecond))
	if took > 15*time.Second+time.Second {
		t.Fatalf("a request waited %s on a silent PostgreSQL", took)
	}
	proxy.Restore()
	deadline := time.Now().Add(15 * time.Second)
	for api.Get(t, "/api/v1/students").Status != http.StatusOK {
		if time.Now().After(deadline) {
			t.Fatal("no success 15 s after PostgreSQL answered again")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// startBehindProxy starts the service on a fresh PostgreSQL schema reached through a TCP
// proxy the test can cut.
func startBehindProxy(t *testing.T) (*testenv.Env, *testenv.TCPProxy) {
	t.Helper()
	u, err := url.Parse(testenv.NewPostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewTCPProxy(t, u.Host)
	u.Host = proxy.Addr
	return testenv.Start(t, u.String()), proxy
}

// A network that drops PostgreSQL's packets (nothing acknowledges what the connection
// sends; the proxy's blackhole above still does) ends a statement on an open connection
// within the URL's tcp_user_timeout, not TCP's retransmission timeout (about 15 minutes):
// the loops that wait on the database without a deadline of their own are bounded too.
func TestDroppedPostgresPacketsEndAStatementWithinTheUserTimeout(t *testing.T) {
	testenv.Parallel(t)
	u, err := url.Parse(testenv.NewPostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	proxy := testenv.NewTCPProxy(t, u.Host)
	u.Host = proxy.Addr
	q := u.Query()
	q.Set("tcp_user_timeout", "2000")
	u.RawQuery = q.Encode()
	ctx := context.Background()
	db, err := sqldb.Open(ctx, u.String(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.Writer.SetMaxOpenConns(1) // the statement below goes out on the open connection
	var one int
	if err := db.Writer.GetContext(ctx, &one, "SELECT 1"); err != nil {
		t.Fatal(err)
	}

	_, port, _ := net.SplitHostPort(proxy.Addr)
	testenv.DropLoopbackPort(t, port)
	waitAtMost, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	began := time.Now()
	err = db.Writer.GetContext(waitAtMost, &one, "SELECT 1")
	took := time.Since(began)
	if err == nil {
		t.Fatal("a statement succeeded while every packet was dropped")
	}
	if took > 10*time.Second {
		t.Fatalf("the statement waited %s for dropped packets (%v), want about the 2 s tcp_user_timeout", took, err)
	}
	t.Logf("the statement ended after %s: %v", took.Round(time.Millisecond), err)
}
