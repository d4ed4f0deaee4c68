package ratelimit

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Limiter applies quotas in the windows of the injected clock, so that tests move
// time by hand.
type Limiter struct {
	counter Counter
	clock   platform.Clock
	blocked *blocklist
}

// NewLimiter builds the limiter over a counting store.
func NewLimiter(counter Counter, clock platform.Clock) *Limiter {
	return &Limiter{counter: counter, clock: clock, blocked: newBlocklist()}
}

// TakeKey admits and counts one request of an API key under its quota, or refuses it
// without counting it.
func (l *Limiter) TakeKey(ctx context.Context, keyID string, q Quota) (Decision, error) {
	return l.take(ctx, "key:"+keyID, q)
}

func (l *Limiter) take(ctx context.Context, subject string, q Quota) (Decision, error) {
	now := l.clock.Now()
	w := WindowsAt(now)
	u, admitted, err := l.counter.Take(ctx, subject, w, q)
	if err != nil {
		return Decision{}, fmt.Errorf("rate limit: %w", err)
	}
	return decide(now, w, q, u, admitted), nil
}

// Sweep forgets the windows that ended before today; a background job calls it.
func (l *Limiter) Sweep(ctx context.Context) (int, error) {
	now := l.clock.Now()
	l.blocked.prune(now)
	n, err := l.counter.Sweep(ctx, WindowsAt(now).Day)
	if err != nil {
		return 0, fmt.Errorf("sweep rate limits: %w", err)
	}
	return n, nil
}
