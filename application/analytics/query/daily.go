package query

import (
	"context"
	"fmt"
	"time"
)

// DayRevenue is one currency's net revenue (minor units) on one UTC day.
type DayRevenue struct {
	Day      time.Time
	Currency string
	Net      int64
}

// DayCount is a count on one UTC day.
type DayCount struct {
	Day time.Time
	N   int64
}

// Daily is the summary's window day by day, for charts. Days without activity are absent.
type Daily struct {
	From, To    time.Time
	Revenue     []DayRevenue // by currency, then day
	Completions []DayCount   // enrollments completed, by day
}

// DailyReadModel reads the projection's rows of a window [start, end) at 00:00 UTC.
type DailyReadModel interface {
	Daily(ctx context.Context, workspaceID string, start, end time.Time) (revenue []DayRevenue, completions []DayCount, err error)
}

// GetDaily validates the window as GetSummary does and reads its days, for charts.
func (r Reads) GetDaily(ctx context.Context, q GetSummary) (Daily, error) {
	from, to, err := window(q.From, q.To, r.Clock.Now().UTC())
	if err != nil {
		return Daily{}, err
	}
	rev, done, err := r.Daily.Daily(ctx, q.WorkspaceID, from, to.AddDate(0, 0, 1))
	if err != nil {
		return Daily{}, fmt.Errorf("analytics by day: %w", err)
	}
	return Daily{From: from, To: to, Revenue: rev, Completions: done}, nil
}
