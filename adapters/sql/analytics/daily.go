package analytics

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

var _ query.DailyReadModel = (*Summary)(nil)

// Daily reads the window's rows by primary-key prefix: at most a row per day and currency.
func (a *Summary) Daily(ctx context.Context, workspaceID string, start, end time.Time) ([]query.DayRevenue, []query.DayCount, error) {
	q := a.DB.Read(ctx)
	from, to := int64(command.DayOf(start)), int64(command.DayOf(end))
	rev, err := sqldb.All[struct {
		Day      command.Day
		Currency string
		Net      int64
	}](ctx, q, a.Q.RevenueByDay, workspaceID, from, to)
	if err != nil {
		return nil, nil, err
	}
	done, err := sqldb.All[struct {
		Day command.Day
		N   int64
	}](ctx, q, a.Q.CompletionsByDay, workspaceID, from, to)
	if err != nil {
		return nil, nil, err
	}
	out := make([]query.DayRevenue, len(rev))
	for i, r := range rev {
		out[i] = query.DayRevenue{Day: r.Day.Start(), Currency: r.Currency, Net: r.Net}
	}
	counts := make([]query.DayCount, len(done))
	for i, c := range done {
		counts[i] = query.DayCount{Day: c.Day.Start(), N: c.N}
	}
	return out, counts, nil
}
