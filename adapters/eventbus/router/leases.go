package router

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/lease"
)

// sweepEvery is how many heartbeats pass between sweeps of dead instances' rows.
const sweepEvery = 30

// loop renews the leases and rebalances every Heartbeat until Stop.
func (r *Router) loop() {
	defer close(r.loopDone)
	t := time.NewTicker(r.cfg.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-r.loopStop:
			return
		case <-t.C:
			r.tick(context.Background())
		}
	}
}

// heartbeatDeadline is how long a renewal may wait: until another instance may take what
// this one holds (then its parts must stop, below), and at least one heartbeat. Without it
// a database that goes silent (a dead switch: no reset, no answer) would hold the renewal for
// TCP's retransmission timeout, minutes, while the parts ran on leases others had taken.
func (r *Router) heartbeatDeadline(now time.Time) time.Time {
	if r.renewed.IsZero() {
		return now.Add(r.cfg.LeaseTTL)
	}
	return later(r.renewed.Add(r.cfg.LeaseTTL-r.cfg.Heartbeat), now.Add(r.cfg.Heartbeat))
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// tick is one heartbeat: renew what this instance holds, stop what it lost, follow the
// deployment's partition count, then move each consumer towards its fair share (balance).
func (r *Router) tick(ctx context.Context) {
	now := time.Now()
	hctx, cancel := context.WithDeadline(ctx, r.heartbeatDeadline(now))
	held, cen, err := r.leases.Heartbeat(hctx, r.instance, now, now.Add(r.cfg.LeaseTTL), now.Add(-r.cfg.LeaseTTL))
	cancel()
	if err != nil {
		r.logger.Error("events router: heartbeat", err, nil)
		if !r.renewed.IsZero() && time.Since(r.renewed) > r.cfg.LeaseTTL-r.cfg.Heartbeat {
			// Another instance may take these leases any moment now: stop before it does.
			r.stopParts(r.runningKeys(), false)
		}
		return
	}
	r.renewed = now
	if cen.Parts != r.parts {
		if err := r.adopt(ctx, cen.Parts, false); err != nil {
			r.logger.Error("events router: partition count change", err, nil)
			return
		}
	}
	mine := map[lease.Key]bool{}
	var current, foreign []lease.Key
	for _, k := range held {
		mine[k] = true
		if k.Parts == r.parts {
			current = append(current, k)
		} else {
			foreign = append(foreign, k)
		}
	}
	var lost []lease.Key
	for _, k := range r.runningKeys() {
		if !mine[k] {
			lost = append(lost, k) // expired and taken by another instance
		}
	}
	if len(lost) > 0 {
		r.logger.Info("events router: leases lost", watermill.LogFields{"parts": len(lost)})
		r.stopParts(lost, false)
	}
	if len(foreign) > 0 {
		r.stopParts(foreign, true) // an older layout's: its successor waits for these
	}
	byConsumer := map[string][]lease.Key{}
	for _, k := range current {
		byConsumer[k.Consumer] = append(byConsumer[k.Consumer], k)
	}
	total := len(current)
	for _, c := range r.consumers {
		total += r.balance(ctx, c.Name, byConsumer[c.Name], cen, total, now)
	}
	if r.ticks++; r.ticks%sweepEvery == 0 {
		if err := r.leases.Sweep(ctx, r.parts, now, now.Add(-10*r.cfg.LeaseTTL)); err != nil {
			r.logger.Error("events router: sweep", err, nil)
		}
	}
}

// ensureRunning starts k unless it runs; a failure frees the lease for another try.
func (r *Router) ensureRunning(ctx context.Context, k lease.Key) {
	r.mu.Lock()
	_, ok := r.running[k]
	r.mu.Unlock()
	if ok {
		return
	}
	err := lease.SeedPositions(ctx, r.db, k.Consumer, k.Parts)
	if err == nil {
		err = r.startPart(ctx, k)
	}
	if err != nil {
		r.logger.Error("events router: start part", err, watermill.LogFields{"part": eventbus.PartGroup(k.Consumer, k.Part, k.Parts)})
		if rerr := r.leases.Release(ctx, r.instance, k, time.Now()); rerr != nil {
			r.logger.Error("events router: release", rerr, nil)
		}
	}
}

// adopt makes parts this instance's layout: its index and lease rows exist; at start
// (set) it also becomes the deployment's layout.
func (r *Router) adopt(ctx context.Context, parts int, set bool) error {
	if err := lease.EnsureLayoutIndex(ctx, r.db, parts); err != nil {
		return err
	}
	names := make([]string, len(r.consumers))
	for i, c := range r.consumers {
		names[i] = c.Name
	}
	if err := r.leases.Ensure(ctx, names, parts, time.Now()); err != nil {
		return err
	}
	if set {
		if err := r.leases.SetLayout(ctx, parts, time.Now()); err != nil {
			return err
		}
	}
	if parts != r.parts {
		r.logger.Info("events router: partition count changed", watermill.LogFields{"from": r.parts, "to": parts})
	}
	r.parts = parts
	return nil
}

// balance moves this instance's pairs of consumer towards its fair share and returns how
// many it gained (claimed less given back): with P partitions and A live instances running the consumer, each holds
// floor(P/A) or ceil(P/A). It claims free or expired pairs up to floor, and up to ceil
// only while no live instance holds fewer pairs in all than it does (total), so that the
// pairs above floor spread over the instances; it drains and gives back pairs above ceil,
// and one pair above floor while another instance holds fewer than floor (a newcomer),
// which then claims it.
func (r *Router) balance(ctx context.Context, consumer string, held []lease.Key, cen lease.Census, total int, now time.Time) (delta int) {
	alive := max(cen.Alive[consumer], 1)
	lo, hi := r.parts/alive, (r.parts+alive-1)/alive
	share := hi
	if total > cen.Least {
		share = max(min(len(held), hi), lo) // keep up to ceil, claim no more than floor
	}
	if len(held) > lo && (cen.Fewest[consumer] < lo || total > cen.Least+1) {
		// A newcomer below floor, or an instance with two pairs fewer in all: one goes to it.
		share = max(len(held)-1, lo)
	}
	slices.SortFunc(held, func(a, b lease.Key) int { return cmp.Compare(a.Part, b.Part) })
	if len(held) > share {
		surplus := held[share:]
		r.logger.Info("events router: rebalancing, giving pairs back", watermill.LogFields{"consumer": consumer, "pairs": len(surplus), "share": share})
		r.stopParts(surplus, true)
		held = held[:share]
		defer func() { delta -= len(surplus) }()
	}
	for _, k := range held {
		r.ensureRunning(ctx, k)
	}
	if len(held) < share {
		got, err := r.leases.ClaimUpTo(ctx, r.instance, consumer, r.parts, share-len(held), now, now.Add(r.cfg.LeaseTTL))
		if err != nil {
			r.logger.Error("events router: claim", err, nil)
		}
		for _, k := range got {
			r.ensureRunning(ctx, k)
		}
		return len(got)
	}
	return 0
}
