package analytics

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

var _ query.DailyReadModel = (*Summary)(nil)

// Daily reads the window's rows by primary-key prefix: at most a row per day and currency.
func (a *Summary) Daily(ctx context.Context, workspaceID string, start, end time.Time) ([]query.DayRevenue, []query.DayCount, error) {
	from, to := int64(command.DayOf(start)), int64(command.DayOf(end))
	var rev []struct {
		Day      int64  `db:"day"`
		Currency string `db:"currency"`
		Net      int64  `db:"net"`
	}
	err := a.db.Read(ctx).SelectContext(ctx, &rev, a.db.Rebind(`SELECT day, currency, gross - refunded AS net FROM analytics_revenue_daily
		WHERE workspace_id = ? AND day >= ? AND day < ? AND orders + refunds > 0 ORDER BY currency, day`), workspaceID, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("revenue by day: %w", err)
	}
	var done []struct {
		Day int64 `db:"day"`
		N   int64 `db:"n"`
	}
	err = a.db.Read(ctx).SelectContext(ctx, &done, a.db.Rebind(`SELECT day, enrollments_completed AS n FROM analytics_activity_daily
		WHERE workspace_id = ? AND day >= ? AND day < ? AND enrollments_completed > 0 ORDER BY day`), workspaceID, from, to)
	if err != nil {
		return nil, nil, fmt.Errorf("completions by day: %w", err)
	}
	out := make([]query.DayRevenue, len(rev))
	for i, r := range rev {
		out[i] = query.DayRevenue{Day: command.Day(r.Day).Start(), Currency: r.Currency, Net: r.Net}
	}
	counts := make([]query.DayCount, len(done))
	for i, c := range done {
		counts[i] = query.DayCount{Day: command.Day(c.Day).Start(), N: c.N}
	}
	return out, counts, nil
}
