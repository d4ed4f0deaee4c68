package creatorapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"math"
	mrand "math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// IdempotencyKeyHeader names the header every POST of /api/v1 takes (docs/idempotency.md).
const IdempotencyKeyHeader = "Idempotency-Key"

// TransportOptions tune Transport; zero values take the defaults in brackets.
type TransportOptions struct {
	Timeout      time.Duration // per try [30s]
	Attempts     int           // tries in all, the first included [6]
	BaseDelay    time.Duration // first backoff, doubled per retry, full jitter [250ms]
	MaxDelay     time.Duration // cap of one backoff or Retry-After wait [60s]
	MinRemaining int           // pace when X-RateLimit-Remaining drops below this [5]
	MaxPace      time.Duration // cap of one pacing wait [60s]
	// Base sends one try [http.DefaultTransport].
	Base http.RoundTripper
	// NewKey makes a fresh Idempotency-Key [crypto/rand.Text].
	NewKey func() string
	// OnAttempt, when set, is called after every try (status 0 after a network error).
	OnAttempt func(Attempt)
	// Sleep waits [a timer that honours the context].
	Sleep func(ctx context.Context, d time.Duration) error
}

// Attempt describes one try of a logical call.
type Attempt struct {
	Method, URL, IdempotencyKey string
	N, Status                   int
	Err                         error
}

// RateLimit is what the last answer's X-RateLimit-* headers said (zero: not seen yet).
type RateLimit struct {
	Limit, Remaining, DailyLimit, DailyRemaining int
	Reset                                        time.Time
	seen                                         bool
}

// Transport is an http.RoundTripper that does the chores of every logical call: it paces
// from the rate-limit headers (waits for X-RateLimit-Reset when fewer than MinRemaining
// requests are left this minute), bounds each try by Timeout, and retries a network
// error, a timeout, a 429 (after Retry-After) or a 5xx with jittered exponential backoff.
// A POST gets one Idempotency-Key (unless the caller set one) that every retry of it
// sends again, so a retry after a lost answer is replayed rather than applied twice.
// GET, PATCH (merge semantics) and DELETE (idempotent) are retried as they are.
type Transport struct {
	o  TransportOptions
	mu sync.Mutex
	rl RateLimit
}

// NewTransport returns a Transport with o's settings.
func NewTransport(o TransportOptions) *Transport {
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Attempts <= 0 {
		o.Attempts = 6
	}
	if o.BaseDelay <= 0 {
		o.BaseDelay = 250 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = time.Minute
	}
	if o.MinRemaining <= 0 {
		o.MinRemaining = 5
	}
	if o.MaxPace <= 0 {
		o.MaxPace = time.Minute
	}
	if o.Base == nil {
		o.Base = http.DefaultTransport
	}
	if o.NewKey == nil {
		o.NewKey = rand.Text // 26 base32 characters, 130 random bits
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	return &Transport{o: o}
}

// RateLimit returns what the last answer said about the key's limits.
func (t *Transport) RateLimit() RateLimit {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.rl
}

// RoundTrip sends req with pacing, a timeout per try and retries.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		_ = req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("creatorapi: read request body: %w", err)
		}
		body = b
	}
	header := req.Header.Clone()
	if req.Method == http.MethodPost && header.Get(IdempotencyKeyHeader) == "" {
		header.Set(IdempotencyKeyHeader, t.o.NewKey())
	}
	key := header.Get(IdempotencyKeyHeader)
	for n := 1; ; n++ {
		if err := t.pace(ctx); err != nil {
			return nil, err
		}
		res, err := t.try(req, header, body)
		a := Attempt{Method: req.Method, URL: req.URL.String(), IdempotencyKey: key, N: n, Err: err}
		if res != nil {
			a.Status = res.StatusCode
		}
		if t.o.OnAttempt != nil {
			t.o.OnAttempt(a)
		}
		if err != nil && ctx.Err() != nil {
			return nil, err // the caller gave up: no retry
		}
		if err == nil && !retryable(res.StatusCode) {
			return res, nil
		}
		if n >= t.o.Attempts {
			return res, err
		}
		wait := t.backoff(n, res)
		if res != nil {
			_, _ = io.Copy(io.Discard, res.Body)
			_ = res.Body.Close()
		}
		if err := t.o.Sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// try sends one copy of the request, its body read in full within the timeout so that a
// dropped answer surfaces here (and is retried) rather than in the caller's decoder.
func (t *Transport) try(req *http.Request, header http.Header, body []byte) (*http.Response, error) {
	ctx, cancel := context.WithTimeout(req.Context(), t.o.Timeout)
	defer cancel()
	r := req.Clone(ctx)
	r.Header = header.Clone()
	if body != nil {
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	res, err := t.o.Base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, fmt.Errorf("creatorapi: read answer: %w", err)
	}
	res.Body = io.NopCloser(bytes.NewReader(b))
	t.observe(res.Header)
	return res, nil
}

func (t *Transport) observe(h http.Header) {
	num := func(name string) (int, bool) {
		v, err := strconv.Atoi(h.Get(name))
		return v, err == nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if v, ok := num("X-RateLimit-Limit"); ok {
		t.rl.Limit = v
	}
	if v, ok := num("X-RateLimit-Remaining"); ok {
		t.rl.Remaining, t.rl.seen = v, true
	}
	if v, ok := num("X-RateLimit-Reset"); ok {
		t.rl.Reset = time.Unix(int64(v), 0)
	}
	if v, ok := num("X-RateLimit-Daily-Limit"); ok {
		t.rl.DailyLimit = v
	}
	if v, ok := num("X-RateLimit-Daily-Remaining"); ok {
		t.rl.DailyRemaining = v
	}
}

// pace waits for the minute's reset when the last answer left fewer than MinRemaining.
func (t *Transport) pace(ctx context.Context) error {
	t.mu.Lock()
	low := t.rl.seen && t.rl.Remaining < t.o.MinRemaining
	wait := time.Until(t.rl.Reset)
	t.rl.seen = false // the next answer tells again
	t.mu.Unlock()
	if !low || wait <= 0 {
		return nil
	}
	return t.o.Sleep(ctx, min(wait, t.o.MaxPace))
}

// backoff honours Retry-After (seconds) on a 429 or 503; otherwise exponential, full jitter.
func (t *Transport) backoff(n int, res *http.Response) time.Duration {
	if res != nil && (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable) {
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s >= 0 {
			return min(time.Duration(s)*time.Second, t.o.MaxDelay)
		}
	}
	ceiling := float64(t.o.BaseDelay) * math.Pow(2, float64(n-1))
	return min(time.Duration(mrand.Float64()*ceiling), t.o.MaxDelay)
}

func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
