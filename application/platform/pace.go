package platform

import (
	"sync"
	"time"
)

// Stage is a part of the event pipeline whose lag the Pacer hears about.
type Stage int

const (
	// StageDispatch: from a delivery's creation to its first attempt (the fan-out runs in
	// the publishing transaction, so a delivery is created with its event).
	StageDispatch Stage = iota
	stages
)

// Pacing constants. A stage not heard from for pacingFresh has nothing waiting (its
// consumer handles events as they come, or none come). One observation counts
// pacingWeight of the smoothed lag, so one odd event (a delivery whose endpoint was
// re-enabled after a day) moves it little; an observation is capped at pacingCap.
const (
	pacingFresh  = time.Second
	pacingWeight = 0.2
	pacingCap    = 10 * time.Second
	// pacingGain turns the lag over the target into a delay: 100 ms over it delays each
	// producing request by 10 ms, so the accepted rate settles where the pipeline keeps up
	// (measured in docs/events.md, "Pacing"); the delay never exceeds MaxPaceDelay.
	pacingGain   = 0.1
	MaxPaceDelay = 500 * time.Millisecond
)

// Pacer keeps the API from running ahead of the event pipeline on shared cores: the
// pipeline's stages report how late they handle what they take, and while the smoothed
// sum exceeds the target, each request that produces events waits a little before it
// runs (Delay). The producers then yield CPU to the consumers and the dispatcher, and the
// backlog stays bounded near the target instead of growing for as long as the load
// lasts. It paces this instance only, by what its own dispatcher sees (docs/events.md,
// "Pacing").
type Pacer struct {
	target time.Duration // 0: never pace
	now    func() time.Time

	mu   sync.Mutex
	lag  [stages]time.Duration
	seen [stages]time.Time
}

// NewPacer paces producing requests while the pipeline lags more than target (0: never).
// now is wall time: stages report lags of the real clock, not of a test's manual one.
func NewPacer(target time.Duration, now func() time.Time) *Pacer {
	return &Pacer{target: target, now: now}
}

// Observe records that stage s just handled work that waited lag. Observe on a nil
// Pacer does nothing, so a stage works without one.
func (p *Pacer) Observe(s Stage, lag time.Duration) {
	if p == nil || p.target <= 0 {
		return
	}
	lag = min(max(lag, 0), pacingCap)
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.seen[s]) > pacingFresh {
		p.lag[s] = lag
	} else {
		p.lag[s] += time.Duration(pacingWeight * float64(lag-p.lag[s]))
	}
	p.seen[s] = now
}

// ObserveSince records that stage s just handled work waiting since t.
func (p *Pacer) ObserveSince(s Stage, t time.Time) {
	if p == nil || p.target <= 0 {
		return
	}
	p.Observe(s, p.now().Sub(t))
}

// Lag is the smoothed lag of the pipeline: the sum of the stages heard from lately.
func (p *Pacer) Lag() time.Duration {
	if p == nil {
		return 0
	}
	now := p.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	var sum time.Duration
	for s := range stages {
		if now.Sub(p.seen[s]) <= pacingFresh {
			sum += p.lag[s]
		}
	}
	return sum
}

// Delay is how long a producing request should wait before it runs: 0 while the
// pipeline keeps up.
func (p *Pacer) Delay() time.Duration {
	if p == nil || p.target <= 0 {
		return 0
	}
	over := p.Lag() - p.target
	if over <= 0 {
		return 0
	}
	return min(time.Duration(pacingGain*float64(over)), MaxPaceDelay)
}
