package ratelimit

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// counterRow is one subject's row: both windows' starts, what was claimed in each and
// how much of that is blocks still held by instances.
type counterRow struct {
	minuteStart, dayStart   int64
	minuteCount, dayCount   int
	minuteLeased, dayLeased int
}

// settle hands back b's unused requests and drops it from the leased totals.
func (r *counterRow) settle(b block) {
	unused := b.granted - b.used
	if r.minuteStart == b.minute {
		r.minuteCount -= unused
		r.minuteLeased = max(r.minuteLeased-b.granted, 0)
	}
	if r.dayStart == b.day {
		r.dayCount -= unused
		r.dayLeased = max(r.dayLeased-b.granted, 0)
	}
}

// roll opens the windows of w when they are newer; a window never moves back, so an
// instance whose clock lags counts in the window another has opened.
func (r *counterRow) roll(w ratelimit.Windows) {
	if m := w.Minute.Unix(); m > r.minuteStart {
		r.minuteStart, r.minuteCount, r.minuteLeased = m, 0, 0
	}
	if d := w.Day.Unix(); d > r.dayStart {
		r.dayStart, r.dayCount, r.dayLeased = d, 0, 0
	}
}

type claimResult struct {
	kind        ratelimit.GrantKind
	n           int
	minute, day int64
	known       ratelimit.Usage
	// prompt: the block was cut near the exact zone (less than three times its size left
	// before it), where other instances may soon wait for it to come back.
	prompt bool
}

// claimOnce settles this instance's previous block of subject, if any, and asks for a
// new one (or a single request) in one atomic update of the subject's row. With
// forget, blocks that other instances have not settled in time are counted as used.
func (d *Leased) claimOnce(ctx context.Context, subject string, e *leaseEntry, w ratelimit.Windows, q ratelimit.Quota, want int, forget bool) (claimResult, error) {
	var res claimResult
	err := d.rows.update(ctx, subject, func(r *counterRow) {
		if e.block.active {
			r.settle(e.block)
		}
		r.roll(w)
		if forget {
			r.minuteLeased, r.dayLeased = 0, 0
		}
		c := ratelimit.Claimed{Minute: r.minuteCount, Day: r.dayCount, MinuteLeased: r.minuteLeased, DayLeased: r.dayLeased}
		res.kind, res.n = ratelimit.Grant(c, q, want)
		res.minute, res.day, res.known = r.minuteStart, r.dayStart, c.Known()
		switch res.kind {
		case ratelimit.Block:
			r.minuteCount, r.dayCount = r.minuteCount+res.n, r.dayCount+res.n
			r.minuteLeased, r.dayLeased = r.minuteLeased+res.n, r.dayLeased+res.n
			left := min(q.PerMinute-ratelimit.ExactZone-r.minuteCount, q.PerDay-ratelimit.ExactZone-r.dayCount)
			res.prompt = left < 3*res.n
		case ratelimit.Single:
			r.minuteCount, r.dayCount = r.minuteCount+1, r.dayCount+1
		}
	})
	if err != nil {
		return res, fmt.Errorf("claim requests: %w", err)
	}
	e.block.active = false // settled in the update, if there was one
	return res, nil
}
