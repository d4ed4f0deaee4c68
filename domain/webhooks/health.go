package webhooks

import (
	"context"
	"sort"
	"strconv"
	"time"
)

// LatencyBounds are the upper bounds of the latency buckets an endpoint's health counts
// attempts in (the last bucket is open: beyond 10 s, the attempt timeout). A percentile
// is reported as the upper bound of the bucket it falls in, so it is exact to a bucket:
// within 5 ms up to 20 ms, within a third above.
var LatencyBounds = []time.Duration{
	5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 30 * time.Millisecond,
	50 * time.Millisecond, 75 * time.Millisecond, 100 * time.Millisecond, 150 * time.Millisecond,
	200 * time.Millisecond, 300 * time.Millisecond, 500 * time.Millisecond, 750 * time.Millisecond,
	time.Second, 1500 * time.Millisecond, 2 * time.Second, 3 * time.Second, 5 * time.Second,
	7500 * time.Millisecond, 10 * time.Second,
}

// LatencyBuckets is the number of buckets: one per bound, and the open one.
var LatencyBuckets = len(LatencyBounds) + 1

// BucketOf is the index of the latency bucket of d, counted in whole milliseconds as the
// attempt log shows it: the first bucket whose bound is at least that.
func BucketOf(d time.Duration) int {
	d = d.Truncate(time.Millisecond)
	return sort.Search(len(LatencyBounds), func(i int) bool { return LatencyBounds[i] >= d })
}

// BucketBound is the latency reported for bucket i: its upper bound (the open bucket
// reports the last bound, the attempt timeout).
func BucketBound(i int) time.Duration {
	return LatencyBounds[min(i, len(LatencyBounds)-1)]
}

// HealthHour is one endpoint's attempts made in one hour (UTC) whose latency fell in one
// bucket: the rollup row each recorded attempt adds to, so that the health figures read
// at most 24 × 7 × LatencyBuckets rows per endpoint and never the attempt log.
type HealthHour struct {
	WorkspaceID    string
	SubscriptionID string
	Hour           time.Time // the hour's start
	Bucket         int
	Attempts       int
	Succeeded      int
	// LastError describes the latest failed attempt of the row ("" when none failed),
	// made at LastErrorAt.
	LastError   string
	LastErrorAt *time.Time
}

// HealthRollup folds attempts into rollup rows, one per endpoint, hour and bucket,
// ordered by endpoint, hour and bucket (the order rows are locked in).
func HealthRollup(as []Attempt) []HealthHour {
	type key struct {
		sub    string
		hour   time.Time
		bucket int
	}
	rows := map[key]*HealthHour{}
	var keys []key
	for _, a := range as {
		k := key{a.SubscriptionID, a.At.UTC().Truncate(time.Hour), BucketOf(a.Latency)}
		h, ok := rows[k]
		if !ok {
			h = &HealthHour{WorkspaceID: a.WorkspaceID, SubscriptionID: k.sub, Hour: k.hour, Bucket: k.bucket}
			rows[k] = h
			keys = append(keys, k)
		}
		h.Attempts++
		if a.Outcome == Succeeded {
			h.Succeeded++
			continue
		}
		if at := a.At; h.LastErrorAt == nil || !at.Before(*h.LastErrorAt) {
			h.LastError, h.LastErrorAt = a.Describe(), &at
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		if a.sub != b.sub {
			return a.sub < b.sub
		}
		if !a.hour.Equal(b.hour) {
			return a.hour.Before(b.hour)
		}
		return a.bucket < b.bucket
	})
	out := make([]HealthHour, len(keys))
	for i, k := range keys {
		out[i] = *rows[k]
	}
	return out
}

// Describe is what a failed attempt's health shows as its error: the sender's error, or
// the receiver's status code.
func (a Attempt) Describe() string {
	switch {
	case a.Error != "":
		return a.Error
	case a.StatusCode != 0:
		return "HTTP " + strconv.Itoa(a.StatusCode)
	default:
		return string(a.Outcome)
	}
}

// HealthWindow is an endpoint's figures over a period.
type HealthWindow struct {
	Attempts  int
	Succeeded int
	// P50 and P95 are the latency percentiles to a bucket's precision (0 without attempts).
	P50, P95    time.Duration
	LastError   string
	LastErrorAt *time.Time
}

// SuccessRate is the share of attempts that succeeded, in percent (-1 without attempts).
func (w HealthWindow) SuccessRate() float64 {
	if w.Attempts == 0 {
		return -1
	}
	return float64(w.Succeeded) * 100 / float64(w.Attempts)
}

// HourCount is one hour of an endpoint's attempts (for its chart).
type HourCount struct {
	Hour      time.Time
	Attempts  int
	Succeeded int
}

// Health is an endpoint's figures over the last 24 hours and 7 days, and its last 24
// hours hour by hour (oldest first).
type Health struct {
	Day, Week HealthWindow
	Hours     []HourCount
}

// HealthWindowHours are the two windows, in hours, counted back from the current hour
// included: the last 24 hours are the current hour and the 23 before it.
const (
	DayHours  = 24
	WeekHours = 7 * 24
)

// SummarizeHealth computes the figures at now from an endpoint's rollup rows of the
// last WeekHours hours.
func SummarizeHealth(rows []HealthHour, now time.Time) Health {
	current := now.UTC().Truncate(time.Hour)
	dayFrom := current.Add(-(DayHours - 1) * time.Hour)
	weekFrom := current.Add(-(WeekHours - 1) * time.Hour)
	day, week := make([]int, LatencyBuckets), make([]int, LatencyBuckets)
	out := Health{Hours: make([]HourCount, DayHours)}
	for i := range out.Hours {
		out.Hours[i].Hour = dayFrom.Add(time.Duration(i) * time.Hour)
	}
	for _, r := range rows {
		if r.Hour.Before(weekFrom) || r.Hour.After(current) || r.Bucket < 0 || r.Bucket >= LatencyBuckets {
			continue
		}
		week[r.Bucket] += r.Attempts
		add(&out.Week, r)
		if r.Hour.Before(dayFrom) {
			continue
		}
		day[r.Bucket] += r.Attempts
		add(&out.Day, r)
		h := &out.Hours[int(r.Hour.Sub(dayFrom)/time.Hour)]
		h.Attempts += r.Attempts
		h.Succeeded += r.Succeeded
	}
	out.Day.P50, out.Day.P95 = percentile(day, 50), percentile(day, 95)
	out.Week.P50, out.Week.P95 = percentile(week, 50), percentile(week, 95)
	return out
}

func add(w *HealthWindow, r HealthHour) {
	w.Attempts += r.Attempts
	w.Succeeded += r.Succeeded
	if r.LastErrorAt != nil && (w.LastErrorAt == nil || r.LastErrorAt.After(*w.LastErrorAt)) {
		at := *r.LastErrorAt
		w.LastError, w.LastErrorAt = r.LastError, &at
	}
}

// percentile is the bound of the bucket holding the q-th percentile attempt (nearest
// rank), 0 without attempts.
func percentile(counts []int, q int) time.Duration {
	total := 0
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	rank := (total*q + 99) / 100 // ceil(total × q / 100), at least 1
	seen := 0
	for i, c := range counts {
		seen += c
		if seen >= rank {
			return BucketBound(i)
		}
	}
	return BucketBound(len(counts) - 1)
}

// HealthStore keeps the rollup: Add folds attempts in, in the transaction of ctx (or its
// own statement); Rows reads an endpoint's rows since an hour.
type HealthStore interface {
	Rows(ctx context.Context, workspaceID, subscriptionID string, since time.Time) ([]HealthHour, error)
}

// FailingAfter is how long an endpoint's failing streak lasts before the workspace is
// told, once per streak (webhook_endpoint.failing).
const FailingAfter = 24 * time.Hour

// FailingAlerts remembers the failing streaks already announced.
type FailingAlerts interface {
	// Mark records the streak of the endpoint that started at since, in the transaction
	// of ctx; it reports false when that streak was already marked.
	Mark(ctx context.Context, workspaceID, subscriptionID string, since, at time.Time) (bool, error)
}
