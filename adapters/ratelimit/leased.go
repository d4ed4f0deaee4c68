package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// Lease timings: a block is used for at most DefaultLeaseLifetime. A block cut near the
// exact zone is handed back at its lifetime's end, or exhaustedSettleDelay after it was
// used up; one cut far from it waits for the instance's next claim of the subject to
// hand it back in the same update, for at most one more lifetime (a claim per block
// instead of a claim and a hand-back: with a key's requests spread over instances each
// block serves a few requests, and the hand-backs were as many writes as the claims).
// A claimant waiting for other instances' blocks asks again every waitPoll.
const (
	DefaultLeaseLifetime = 250 * time.Millisecond
	exhaustedSettleDelay = 5 * time.Millisecond
	waitPoll             = 5 * time.Millisecond
	// A block not settled this long after its lifetime belongs to an instance that
	// died: counted as used. Generous, so that a live but starved instance is waited for.
	forgetAfter = 2 * time.Second
)

// Block sizes a subject asks for: from firstBlock, doubling while blocks are used up
// within their lifetime, up to maxBlock.
const (
	firstBlock = 8
	maxBlock   = 1 << 16
)

// Leased counts in a store that instances share (the rate_limit_counters table, or
// Redis), exactly across them and without a round trip per request: an instance leases
// a block of a subject's windows (one atomic update of the subject's row), admits from
// it in memory, and hands back what it did not use when the block expires, the window
// ends or it stops. ratelimit.Grant sizes the blocks: half of what is left at most,
// single requests in the last ratelimit.ExactZone of a window, where other instances'
// blocks must come back first (docs/rate-limits.md, "Blocks").
type Leased struct {
	rows     leaseRows
	lifetime time.Duration

	mu       sync.Mutex
	subjects map[string]*leaseEntry
	closed   bool
}

// leaseRows is where the shared rows live: each subject's windows, what was claimed in
// them and how much of that is blocks instances hold.
type leaseRows interface {
	// update reads subject's row (zero when it has none), lets change modify it and
	// stores it, atomically against every other instance; change may run more than
	// once (a conflict is retried) and must only depend on the row.
	update(ctx context.Context, subject string, change func(r *counterRow)) error
	// settle hands back b's unused requests outside a claim (expiry, shutdown).
	settle(ctx context.Context, subject string, b block) error
	// deleteOld forgets the rows whose day window started before cutoff.
	deleteOld(ctx context.Context, cutoff int64) (int, error)
}

// leaseEntry is this instance's block of one subject; its mutex serializes the
// subject's requests on this instance only while a claim is under way.
type leaseEntry struct {
	mu    sync.Mutex
	block block
	want  int
	timer *time.Timer
	gen   uint64
}

// block is leased requests of one minute and day window.
type block struct {
	active          bool
	minute, day     int64 // window starts, unix seconds
	quota           ratelimit.Quota
	granted, used   int
	known           ratelimit.Usage // usage vouched for at the claim, this block excluded
	prompt          bool            // cut near the exact zone: handed back as soon as it is done
	expires         time.Time
	exhaustedBefore time.Time // used up before this: the next block doubles
}

// newLeased leases over rows; lifetime <= 0 means DefaultLeaseLifetime.
func newLeased(rows leaseRows, lifetime time.Duration) *Leased {
	if lifetime <= 0 {
		lifetime = DefaultLeaseLifetime
	}
	return &Leased{rows: rows, lifetime: lifetime, subjects: map[string]*leaseEntry{}}
}

// Take admits from this instance's block when it has one for the windows w, else
// claims in the shared store.
func (d *Leased) Take(ctx context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	e := d.entry(subject)
	e.mu.Lock()
	defer e.mu.Unlock()
	now := time.Now()
	if b := &e.block; b.usable(w, q, now) {
		b.used++
		if b.used == b.granted && b.prompt {
			e.timer.Reset(exhaustedSettleDelay)
		}
		return ratelimit.Usage{Minute: b.known.Minute + b.used, Day: b.known.Day + b.used}, true, nil
	}
	return d.claim(ctx, subject, e, w, q)
}

func (b *block) usable(w ratelimit.Windows, q ratelimit.Quota, now time.Time) bool {
	return b.active && b.used < b.granted && b.quota == q && now.Before(b.expires) &&
		w.Minute.Unix() <= b.minute && w.Day.Unix() <= b.day
}

func (d *Leased) entry(subject string) *leaseEntry {
	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.subjects[subject]
	if e == nil {
		e = &leaseEntry{want: firstBlock}
		d.subjects[subject] = e
	}
	return e
}

// claim asks the shared store, waiting while other instances hold blocks that must come
// back first. Called with e.mu held.
func (d *Leased) claim(ctx context.Context, subject string, e *leaseEntry, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	start := time.Now()
	want := d.nextWant(e, start)
	if _, inTx := sqldb.TxFromContext(ctx); inTx {
		// Counted in the caller's transaction, which may roll back: no block to hold.
		want = 1
	}
	for {
		forget := time.Since(start) > d.lifetime+forgetAfter
		r, err := d.claimOnce(ctx, subject, e, w, q, want, forget)
		if err != nil {
			return ratelimit.Usage{}, false, err
		}
		switch r.kind {
		case ratelimit.Block:
			d.hold(subject, e, r, q, start)
			return ratelimit.Usage{Minute: r.known.Minute + 1, Day: r.known.Day + 1}, true, nil
		case ratelimit.Single:
			return ratelimit.Usage{Minute: r.known.Minute + 1, Day: r.known.Day + 1}, true, nil
		case ratelimit.Refused:
			return r.known, false, nil
		}
		select {
		case <-ctx.Done():
			return ratelimit.Usage{}, false, ctx.Err()
		case <-time.After(waitPoll):
		}
	}
}

// nextWant doubles the block size when the last block was used up within half its
// lifetime, and falls back to the first size when it expired half unused.
func (d *Leased) nextWant(e *leaseEntry, now time.Time) int {
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return 1 // stopping: nothing more is leased
	}
	b := e.block
	switch {
	case b.granted == 0:
	case b.used == b.granted && now.Before(b.exhaustedBefore):
		e.want = min(e.want*2, maxBlock)
	case b.used*2 < b.granted:
		e.want = max(firstBlock, b.used*2)
	}
	return e.want
}

// hold keeps the block r granted, its first request used, and arms its settlement.
func (d *Leased) hold(subject string, e *leaseEntry, r claimResult, q ratelimit.Quota, start time.Time) {
	e.block = block{
		active: true, minute: r.minute, day: r.day, quota: q, granted: r.n, used: 1, known: r.known, prompt: r.prompt,
		expires: start.Add(d.lifetime), exhaustedBefore: start.Add(d.lifetime / 2),
	}
	e.gen++
	gen := e.gen
	if e.timer != nil {
		e.timer.Stop()
	}
	delay := d.lifetime
	switch {
	case r.n == 1:
		delay = exhaustedSettleDelay
	case !r.prompt:
		delay += d.lifetime // the next claim hands it back sooner, in its own update
	}
	e.timer = time.AfterFunc(delay, func() { d.settleExpired(subject, e, gen) })
}

// settleExpired hands back what is left of block generation gen, unless a claim has
// settled or replaced it already.
func (d *Leased) settleExpired(subject string, e *leaseEntry, gen uint64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gen != gen || !e.block.active {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.rows.settle(ctx, subject, e.block); err != nil {
		// The store is away: try again later; the block is past use meanwhile.
		e.block.expires = time.Time{}
		e.timer.Reset(d.lifetime)
		return
	}
	e.block.active = false
}

// Close hands back every block this instance holds and leases no more (requests that
// still come are counted one by one).
func (d *Leased) Close(ctx context.Context) error {
	d.mu.Lock()
	d.closed = true
	entries := make(map[string]*leaseEntry, len(d.subjects))
	for s, e := range d.subjects {
		entries[s] = e
	}
	d.mu.Unlock()
	var first error
	for s, e := range entries {
		e.mu.Lock()
		if e.block.active {
			if err := d.rows.settle(ctx, s, e.block); err != nil && first == nil {
				first = err
			} else if err == nil {
				e.block.active = false
			}
		}
		if e.timer != nil {
			e.timer.Stop()
		}
		e.mu.Unlock()
	}
	return first
}

// Sweep forgets this instance's settled blocks of days before dayStart, and the rows
// whose day window started before it.
func (d *Leased) Sweep(ctx context.Context, dayStart time.Time) (int, error) {
	cutoff := dayStart.Unix()
	d.mu.Lock()
	for s, e := range d.subjects {
		if e.mu.TryLock() {
			if !e.block.active && e.block.day < cutoff {
				delete(d.subjects, s)
			}
			e.mu.Unlock()
		}
	}
	d.mu.Unlock()
	return d.rows.deleteOld(ctx, cutoff)
}
