package ratelimit

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// Shared is a counting store that instances share (Redis): Take counts, Ping says
// whether it answers.
type Shared interface {
	ratelimit.Counter
	Ping(ctx context.Context) error
}

// DefaultProbeInterval is how often a degraded store asks the shared one whether it is back.
const DefaultProbeInterval = time.Second

// Resilient counts in a shared store and, while that store does not answer, in this
// process's memory: the documented degraded mode, where each instance holds every quota
// on its own (N instances admit up to N times the quota) but no request fails because the
// rate limiter's store is away. One failed call switches to memory; from then on no
// request touches the shared store (a request never waits on a dead one), and a
// background probe pings it every ProbeInterval until it answers, which switches back.
//
// What was counted in memory during an outage is dropped on the way back: the shared
// store keeps the counts it had before the outage, and each outage starts a fresh memory
// store. So an outage can grant each instance up to one more window's quota, never less.
type Resilient struct {
	shared   Shared
	logger   *slog.Logger
	interval time.Duration

	mu        sync.Mutex
	memory    *Memory // non-nil while degraded
	outages   int
	stopProbe chan struct{}
	probing   sync.WaitGroup
	closed    bool
}

// NewResilient wraps shared; interval <= 0 means DefaultProbeInterval.
func NewResilient(shared Shared, logger *slog.Logger, interval time.Duration) *Resilient {
	if interval <= 0 {
		interval = DefaultProbeInterval
	}
	return &Resilient{shared: shared, logger: logger, interval: interval, stopProbe: make(chan struct{})}
}

// Take counts in the shared store, or in memory while it is away.
func (r *Resilient) Take(ctx context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	if m := r.degradedMemory(); m != nil {
		return m.Take(ctx, subject, w, q)
	}
	u, ok, err := r.shared.Take(ctx, subject, w, q)
	if err == nil {
		return u, ok, nil
	}
	if ctx.Err() != nil || errors.Is(err, context.Canceled) {
		// The client went away: not the store's fault, and nothing to count.
		return u, false, err
	}
	return r.degrade(err).Take(ctx, subject, w, q)
}

// Sweep forgets old windows in memory; the shared store expires its own.
func (r *Resilient) Sweep(ctx context.Context, dayStart time.Time) (int, error) {
	if m := r.degradedMemory(); m != nil {
		return m.Sweep(ctx, dayStart)
	}
	return r.shared.Sweep(ctx, dayStart)
}

// Degraded tells whether this instance counts in memory now.
func (r *Resilient) Degraded() bool { return r.degradedMemory() != nil }

// Outages counts the switches to memory since start.
func (r *Resilient) Outages() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.outages
}

// Ping asks the shared store (at start, so that a wrong URL fails fast).
func (r *Resilient) Ping(ctx context.Context) error { return r.shared.Ping(ctx) }

// Close stops the probe.
func (r *Resilient) Close() {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.stopProbe)
	}
	r.mu.Unlock()
	r.probing.Wait()
}

func (r *Resilient) degradedMemory() *Memory {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.memory
}

// degrade switches to a fresh memory store once per outage, logs it once and starts
// the probe; concurrent failures share the same memory store.
func (r *Resilient) degrade(cause error) *Memory {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.memory != nil {
		return r.memory
	}
	r.memory = NewMemory()
	r.outages++
	r.logger.Error("rate-limit store unreachable: counting per instance in memory until it answers again (each instance holds the quotas on its own)",
		"error", cause)
	if !r.closed {
		r.probing.Add(1)
		go r.probe()
	}
	return r.memory
}

// probe pings the shared store until it answers, then switches back to it.
func (r *Resilient) probe() {
	defer r.probing.Done()
	t := time.NewTicker(r.interval)
	defer t.Stop()
	for {
		select {
		case <-r.stopProbe:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), r.interval)
		err := r.shared.Ping(ctx)
		cancel()
		if err != nil {
			continue
		}
		r.mu.Lock()
		r.memory = nil
		r.mu.Unlock()
		r.logger.Info("rate-limit store answers again: shared counting resumed (counts made in memory during the outage are dropped)")
		return
	}
}
