package analytics

import (
	"context"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

var (
	_ query.ReadModel      = Summary{}
	_ query.DailyReadModel = Summary{}
)

// window is the days [start, end) of instants at 00:00 UTC.
func window(start, end time.Time) func(command.Day) bool {
	from, to := command.DayOf(start), command.DayOf(end)
	return func(d command.Day) bool { return d >= from && d < to }
}

// sold tells whether a revenue row counts: an order or a refund (the SQL's
// orders + refunds > 0).
func sold(r command.Revenue) bool { return r.Orders+r.Refunds > 0 }

// Counts sums the days of [start, end) (both at 00:00 UTC).
func (s Summary) Counts(_ context.Context, workspaceID string, start, end time.Time) (query.Counts, error) {
	in := window(start, end)
	s.mu.RLock()
	defer s.mu.RUnlock()
	byCurrency := map[string]command.Revenue{}
	for k, r := range s.revenue {
		if k.workspaceID == workspaceID && in(k.day) {
			byCurrency[k.currency] = addRevenue(byCurrency[k.currency], r)
		}
	}
	var revenue []query.Revenue
	for currency, r := range byCurrency {
		if sold(r) {
			revenue = append(revenue, query.RevenueOf(currency, r))
		}
	}
	sort.Slice(revenue, func(i, j int) bool { return revenue[i].Currency < revenue[j].Currency })
	var act command.Activity
	for k, a := range s.activity {
		if k.workspaceID == workspaceID && in(k.day) {
			act = addActivity(act, a)
		}
	}
	return query.CountsOf(revenue, act), nil
}

// LastEventAt is the time of the workspace's last event applied (zero if none).
func (s Summary) LastEventAt(_ context.Context, workspaceID string) (time.Time, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.progress[workspaceID], nil
}

// Daily lists the window's days with revenue (by currency, then day) and with
// completions (by day).
func (s Summary) Daily(_ context.Context, workspaceID string, start, end time.Time) ([]query.DayRevenue, []query.DayCount, error) {
	in := window(start, end)
	s.mu.RLock()
	defer s.mu.RUnlock()
	revenue := []query.DayRevenue{}
	for k, r := range s.revenue {
		if k.workspaceID == workspaceID && in(k.day) && sold(r) {
			revenue = append(revenue, query.DayRevenue{Day: k.day.Start(), Currency: k.currency, Net: r.Gross - r.Refunded})
		}
	}
	sort.Slice(revenue, func(i, j int) bool {
		if revenue[i].Currency != revenue[j].Currency {
			return revenue[i].Currency < revenue[j].Currency
		}
		return revenue[i].Day.Before(revenue[j].Day)
	})
	completions := []query.DayCount{}
	for k, a := range s.activity {
		if k.workspaceID == workspaceID && in(k.day) && a.EnrollmentsCompleted > 0 {
			completions = append(completions, query.DayCount{Day: k.day.Start(), N: a.EnrollmentsCompleted})
		}
	}
	sort.Slice(completions, func(i, j int) bool { return completions[i].Day.Before(completions[j].Day) })
	return revenue, completions, nil
}
