package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/propagation"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// drainLimit bounds how much of a response is read to keep the connection reusable.
const drainLimit = 64 << 10

// Sender POSTs signed deliveries through a guarded dialer, never following redirects.
type Sender struct {
	client       *http.Client
	allowPrivate bool
	timeout      time.Duration
}

// NewSender builds a sender; perHost bounds idle connections kept per endpoint.
func NewSender(guard Guard, perHost int) *Sender {
	dialer := &net.Dialer{Timeout: webhooks.Timeout, KeepAlive: 30 * time.Second, Control: guard.Control}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would dial on our behalf, past the guard
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          1024,
		MaxIdleConnsPerHost:   perHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   webhooks.Timeout,
		ResponseHeaderTimeout: webhooks.Timeout,
	}
	return &Sender{
		client: &http.Client{
			Transport:     transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		allowPrivate: guard.AllowPrivate,
		timeout:      webhooks.Timeout,
	}
}

// Send makes one attempt; it never returns an error, the Result says what happened.
func (s *Sender) Send(ctx context.Context, m Message, at time.Time) webhooks.Result {
	start := time.Now()
	res := s.send(ctx, m, at)
	res.Latency = time.Since(start)
	return res
}

func (s *Sender) send(ctx context.Context, m Message, at time.Time) webhooks.Result {
	u, err := url.Parse(m.URL)
	if err != nil || (u.Scheme != "https" && !(u.Scheme == "http" && s.allowPrivate)) {
		return webhooks.Result{Transport: webhooks.TransportRefused, Error: "target refused: only https URLs are allowed"}
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.URL, bytes.NewReader(m.Body))
	if err != nil {
		return webhooks.Result{Transport: webhooks.TransportRefused, Error: "target refused: " + err.Error()}
	}
	req.Header = Headers(m)
	for name, v := range m.Extra {
		req.Header[name] = v
	}
	// traceparent (and tracestate) of the attempt: the receiver can join the trace of the
	// request that caused the event. Nothing when ctx carries no trace.
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	req.ContentLength = int64(len(m.Body))
	resp, err := s.client.Do(req)
	if err != nil {
		return transportFailure(err)
	}
	defer resp.Body.Close()
	head, readErr := io.ReadAll(io.LimitReader(resp.Body, webhooks.ResponseLogLimit))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, drainLimit))
	res := webhooks.Result{StatusCode: resp.StatusCode, Response: printable(string(head))}
	if readErr != nil && !errors.Is(readErr, io.EOF) && resp.StatusCode/100 != 2 {
		res.Error = "reading response: " + networkError(readErr)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		res.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), at)
	}
	if resp.StatusCode/100 == 3 {
		res.Error = "redirect not followed (Location: " + printable(resp.Header.Get("Location")) + ")"
	}
	return res
}

func transportFailure(err error) webhooks.Result {
	var netErr net.Error
	switch {
	case errors.Is(err, ErrRefusedAddress):
		return webhooks.Result{Transport: webhooks.TransportRefused, Error: "target refused: " + refusedReason(err)}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return webhooks.Result{Transport: webhooks.TransportTimeout, Error: fmt.Sprintf("timeout after %s", webhooks.Timeout)}
	default:
		return webhooks.Result{Transport: webhooks.TransportNetwork, Error: networkError(err)}
	}
}

// refusedReason is the guard's reason, which names the kind of address, not the address.
func refusedReason(err error) string {
	var r *refusal
	if errors.As(err, &r) {
		return r.Error()
	}
	return networkError(err)
}

// retryAfter reads seconds or an HTTP date; 0 when absent or malformed.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		if secs < 0 {
			return 0
		}
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// WithTimeout returns a copy that gives up after d instead of the contract's 10 s
// (tests exercise the timeout path without waiting 10 s).
func (s *Sender) WithTimeout(d time.Duration) *Sender {
	c := *s
	c.timeout = d
	return &c
}
