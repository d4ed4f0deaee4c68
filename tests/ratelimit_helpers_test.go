package tests

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// rate is the rate-limit header set of one response.
type rate struct {
	Limit, Remaining, Reset                int64
	DailyLimit, DailyRemaining, DailyReset int64
}

var rateHeaderNames = []string{
	"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
	"X-RateLimit-Daily-Limit", "X-RateLimit-Daily-Remaining", "X-RateLimit-Daily-Reset",
}

// rateOf reads the six headers every public API response carries, failing when one
// is missing or not an integer.
func rateOf(t testing.TB, r testenv.Response) rate {
	t.Helper()
	var v [6]int64
	for i, name := range rateHeaderNames {
		raw := r.Header.Get(name)
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			t.Fatalf("status %d: header %s = %q, want an integer; headers %v", r.Status, name, raw, r.Header)
		}
		v[i] = n
	}
	return rate{v[0], v[1], v[2], v[3], v[4], v[5]}
}

// expectRate checks the limits, what remains, and the resets of both buckets.
func expectRate(t testing.TB, r testenv.Response, want rate) {
	t.Helper()
	if got := rateOf(t, r); got != want {
		t.Fatalf("status %d: rate headers %+v, want %+v", r.Status, got, want)
	}
}

// retryAfter checks a 429 rate_limited response and returns its wait, which the
// header and error.retryAfterSeconds must agree on.
func retryAfter(t testing.TB, r testenv.Response) int {
	t.Helper()
	r.ExpectError(t, http.StatusTooManyRequests, "rate_limited")
	header, err := strconv.Atoi(r.Header.Get("Retry-After"))
	if err != nil {
		t.Fatalf("Retry-After %q is not an integer", r.Header.Get("Retry-After"))
	}
	var body struct {
		Error struct {
			RetryAfterSeconds *int `json:"retryAfterSeconds"`
		} `json:"error"`
	}
	r.Decode(t, &body)
	if body.Error.RetryAfterSeconds == nil || *body.Error.RetryAfterSeconds != header {
		t.Fatalf("error.retryAfterSeconds %v, Retry-After %d: must be equal; body %s", body.Error.RetryAfterSeconds, header, r.Body)
	}
	return header
}

// noRetryAfter fails when a response that is not a 429 carries Retry-After.
func noRetryAfter(t testing.TB, r testenv.Response) {
	t.Helper()
	if v := r.Header.Get("Retry-After"); v != "" {
		t.Fatalf("status %d carries Retry-After %q; only 429 may", r.Status, v)
	}
}

func unix(t time.Time) int64 { return t.Unix() }

// at is a UTC instant on the day of testenv.Epoch.
func at(hour, min, sec int) time.Time {
	e := testenv.Epoch
	return time.Date(e.Year(), e.Month(), e.Day(), hour, min, sec, 0, time.UTC)
}
