package ratelimit

import "time"

// Bucket is one window as the response headers report it.
type Bucket struct {
	Limit     int
	Remaining int
	Reset     time.Time
}

// Decision says whether a request is admitted and what both buckets look like after it.
type Decision struct {
	Allowed bool
	Minute  Bucket
	Day     Bucket
	// RetryAt is when a refused request may succeed: the reset of the exhausted
	// bucket, the later one when both are exhausted. Zero when Allowed.
	RetryAt time.Time
	// RetryAfter is RetryAt in whole seconds from the decision. Zero when Allowed.
	RetryAfter int
}

// secondsUntil counts whole seconds from now to at, rounding up so that a client
// waiting that long is past the reset; at least 1.
func secondsUntil(now, at time.Time) int {
	wait := at.Sub(now)
	return max(int((wait+time.Second-1)/time.Second), 1)
}

func decide(now time.Time, w Windows, q Quota, u Usage, admitted bool) Decision {
	d := Decision{
		Allowed: admitted,
		Minute:  Bucket{Limit: q.PerMinute, Remaining: max(q.PerMinute-u.Minute, 0), Reset: w.MinuteReset()},
		Day:     Bucket{Limit: q.PerDay, Remaining: max(q.PerDay-u.Day, 0), Reset: w.DayReset()},
	}
	if admitted {
		return d
	}
	// The day reset is never earlier than the minute's, so it wins when both are full.
	if d.Day.Remaining == 0 {
		d.RetryAt = d.Day.Reset
		d.RetryAfter = secondsUntil(now, d.RetryAt)
		return d
	}
	// The minute is full, or looks unfounded only because usage was read after a
	// concurrent reset: either way the next minute is the answer.
	d.Minute.Remaining = 0
	d.RetryAt = d.Minute.Reset
	d.RetryAfter = secondsUntil(now, d.RetryAt)
	return d
}
