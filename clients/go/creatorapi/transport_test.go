package creatorapi_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/clients/go/creatorapi"
)

// scripted answers each request with the next of its handlers and keeps what it saw.
type scripted struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter)
	keys    []string
	bodies  []string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.keys = append(s.keys, r.Header.Get(creatorapi.IdempotencyKeyHeader))
	s.bodies = append(s.bodies, string(b))
	next := s.answers[0]
	s.answers = s.answers[1:]
	s.mu.Unlock()
	next(w)
}

func status(code int, headers ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.WriteHeader(code)
	}
}

func hangUp(w http.ResponseWriter) {
	conn, _, _ := http.NewResponseController(w).Hijack()
	_ = conn.Close()
}

func TestTransportRetriesAPostUnderOneKey(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){hangUp, status(502), status(429, "Retry-After", "2"), status(200), status(200)}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	var waits []time.Duration
	tr := creatorapi.NewTransport(creatorapi.TransportOptions{BaseDelay: 100 * time.Millisecond,
		Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
	client := &http.Client{Transport: tr}
	post := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/students/batch", stringsReader(`{"items":[]}`))
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	if res := post(); res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	// The hang-up may be resent once by net/http itself (a request with an Idempotency-Key
	// is replayable), so count the keys rather than the tries.
	first := s.keys[0]
	for i, k := range s.keys {
		if k == "" || k != first {
			t.Fatalf("try %d sent key %q, the first %q", i, k, first)
		}
		if s.bodies[i] != `{"items":[]}` {
			t.Fatalf("try %d sent body %q", i, s.bodies[i])
		}
	}
	if len(waits) < 3 || waits[len(waits)-1] != 2*time.Second {
		t.Fatalf("waits %v: want jittered backoffs, then Retry-After's 2s", waits)
	}
	post()
	if s.keys[len(s.keys)-1] == first {
		t.Fatal("the next call reused the previous call's key")
	}
}

func TestTransportDoesNotRetryA4xxAndGivesUpAfterAttempts(t *testing.T) {
	s := &scripted{answers: []func(http.ResponseWriter){status(422), status(503), status(503)}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	var attempts []creatorapi.Attempt
	tr := creatorapi.NewTransport(creatorapi.TransportOptions{Attempts: 2, OnAttempt: func(a creatorapi.Attempt) { attempts = append(attempts, a) },
		Sleep: func(context.Context, time.Duration) error { return nil }})
	client := &http.Client{Transport: tr}
	for _, want := range []int{422, 503} {
		res, err := client.Get(srv.URL + "/api/v1/students")
		if err != nil || res.StatusCode != want {
			t.Fatalf("got %v %v, want %d", res, err, want)
		}
		res.Body.Close()
	}
	if len(attempts) != 3 || attempts[0].IdempotencyKey != "" {
		t.Fatalf("attempts %+v: want 1 for the 422, 2 for the 503s, no key on a GET", attempts)
	}
}

func TestTransportPacesUnderFiveRemaining(t *testing.T) {
	reset := strconv.FormatInt(time.Now().Add(30*time.Second).Unix(), 10)
	s := &scripted{answers: []func(http.ResponseWriter){
		status(200, "X-RateLimit-Remaining", "4", "X-RateLimit-Reset", reset, "X-RateLimit-Limit", "60"),
		status(200, "X-RateLimit-Remaining", "59", "X-RateLimit-Reset", reset),
		status(200),
	}}
	srv := httptest.NewServer(s)
	defer srv.Close()
	var waits []time.Duration
	tr := creatorapi.NewTransport(creatorapi.TransportOptions{Sleep: func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil }})
	client := &http.Client{Transport: tr}
	for range 3 {
		res, err := client.Get(srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	if len(waits) != 1 || waits[0] < 25*time.Second || waits[0] > 30*time.Second {
		t.Fatalf("waits %v: want one wait of about 30s, before the second request only", waits)
	}
	if rl := tr.RateLimit(); rl.Limit != 60 || rl.Remaining != 59 {
		t.Fatalf("rate limit %+v", rl)
	}
}

func TestTransportTimesOutATryAndStopsWhenTheCallerGivesUp(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		w.WriteHeader(200)
	}))
	defer srv.Close()
	tr := creatorapi.NewTransport(creatorapi.TransportOptions{Timeout: 100 * time.Millisecond, Sleep: func(context.Context, time.Duration) error { return nil }})
	res, err := (&http.Client{Transport: tr}).Get(srv.URL)
	mu.Lock()
	defer mu.Unlock()
	if err != nil || res.StatusCode != 200 || calls != 2 {
		t.Fatalf("after a timed-out try: %v %v, %d calls", res, err, calls)
	}
	res.Body.Close()

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, nil)
	if _, err := (&http.Client{Transport: tr}).Do(req); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled call: %v", err)
	}
}
