package webhooks

import (
	"fmt"
	"strings"
	"time"
)

// DefaultSchedule is the specification's retry schedule: offsets from a delivery's
// first failure at which it is tried again.
var DefaultSchedule = []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour, 24 * time.Hour}

// Timeout bounds one attempt, from dialling to the end of the response headers.
const Timeout = 10 * time.Second

// ResponseLogLimit is how much of a response body the attempt log keeps.
const ResponseLogLimit = 1024

// Transport classifies an attempt that got no HTTP response.
type Transport string

// Transport failures.
const (
	TransportOK      Transport = ""
	TransportTimeout Transport = "timeout"
	TransportNetwork Transport = "network"
	// TransportRefused: the target is not allowed (SSRF guard or scheme); never retried.
	TransportRefused Transport = "refused"
	// TransportUnsigned: nothing was sent because the endpoint's secret cannot be opened;
	// never retried (a resend after a rotation tries again).
	TransportUnsigned Transport = "unsigned"
)

// ReasonSecretUnreadable is the attempt error of a delivery whose endpoint cannot sign.
const ReasonSecretUnreadable = "signing secret cannot be opened (sealed under another master key, or damaged): " +
	"rotate the endpoint's secret, or restore the master key, then resend"

// Unsigned is the result of a delivery not sent because its endpoint cannot sign.
func Unsigned() Result {
	return Result{Transport: TransportUnsigned, Error: ReasonSecretUnreadable}
}

// Outcome is what an attempt means for its delivery.
type Outcome string

// Outcomes of an attempt.
const (
	Succeeded Outcome = "succeeded"
	Retry     Outcome = "retry"
	Failed    Outcome = "failed"
)

// Result is what the sender observed.
type Result struct {
	StatusCode int // 0 when no response
	Transport  Transport
	Latency    time.Duration
	Response   string // at most ResponseLogLimit bytes of the body
	Error      string
	RetryAfter time.Duration // from a 429's Retry-After, 0 when absent
}

// Classify applies the response policy: any 2xx succeeds; 408, 429, 5xx, timeouts and
// network errors are retried; redirects (never followed), other 3xx and 4xx, and refused
// targets fail without retry.
func Classify(r Result) Outcome {
	switch {
	case r.Transport == TransportRefused, r.Transport == TransportUnsigned:
		return Failed
	case r.Transport != TransportOK:
		return Retry
	case r.StatusCode >= 200 && r.StatusCode < 300:
		return Succeeded
	case r.StatusCode == 408, r.StatusCode == 429, r.StatusCode >= 500:
		return Retry
	default:
		return Failed
	}
}

// Policy is the retry configuration.
type Policy struct {
	Schedule []time.Duration
	// MaxRetryAfter caps how far a Retry-After can push an attempt.
	MaxRetryAfter time.Duration
}

// next is when to try again after the n-th failed attempt of a cycle that first failed
// at firstFailure, or false when the schedule is exhausted.
func (p Policy) next(n int, firstFailure, now time.Time, retryAfter time.Duration) (time.Time, bool) {
	if n < 1 || n > len(p.Schedule) {
		return time.Time{}, false
	}
	at := firstFailure.Add(p.Schedule[n-1])
	if retryAfter > p.MaxRetryAfter {
		retryAfter = p.MaxRetryAfter
	}
	if later := now.Add(retryAfter); later.After(at) {
		at = later
	}
	if at.Before(now) {
		at = now
	}
	return at, true
}

// ParseSchedule reads a retry schedule written as comma-separated durations
// ("1m,5m,30m"): each positive, none shorter than the one before.
func ParseSchedule(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(part))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%q is not a positive duration", part)
		}
		if len(out) > 0 && d < out[len(out)-1] {
			return nil, fmt.Errorf("delays must not decrease")
		}
		out = append(out, d)
	}
	return out, nil
}
