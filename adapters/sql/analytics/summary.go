package analytics

import (
	"context"
	"database/sql"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

// Summary answers the summary from the read model only: a window of N days is a sum
// over at most N rows per currency and N activity rows, by primary-key prefix. It also
// serves the days of a window (query.DailyReadModel, daily.go).
type Summary struct {
	sqldb.Prepared[summaryStatements]
}

type summaryStatements struct{ Revenue, Activity, Progress, RevenueByDay, CompletionsByDay string }

// NewSummary prepares the statements. Sums of BIGINT are NUMERIC on PostgreSQL: cast
// back so both engines scan an int64.
func NewSummary(db *sqldb.DB) *Summary {
	return &Summary{sqldb.Prepare(db, summaryStatements{
		Revenue: `SELECT currency, CAST(SUM(gross) AS BIGINT) AS gross, CAST(SUM(refunded) AS BIGINT) AS refunded,
			CAST(SUM(orders) AS BIGINT) AS orders, CAST(SUM(refunds) AS BIGINT) AS refunds
			FROM analytics_revenue_daily WHERE workspace_id = ? AND day >= ? AND day < ?
			GROUP BY currency HAVING SUM(orders) + SUM(refunds) > 0 ORDER BY currency`,
		Activity: `SELECT CAST(COALESCE(SUM(students_new), 0) AS BIGINT) AS students_new,
			CAST(COALESCE(SUM(enrollments_created), 0) AS BIGINT) AS enrollments_created,
			CAST(COALESCE(SUM(enrollments_revoked), 0) AS BIGINT) AS enrollments_revoked,
			CAST(COALESCE(SUM(enrollments_completed), 0) AS BIGINT) AS enrollments_completed,
			CAST(COALESCE(SUM(cohort_completed), 0) AS BIGINT) AS cohort_completed,
			CAST(COALESCE(SUM(lessons_completed), 0) AS BIGINT) AS lessons_completed
			FROM analytics_activity_daily WHERE workspace_id = ? AND day >= ? AND day < ?`,
		Progress: `SELECT last_event_at FROM analytics_progress WHERE workspace_id = ?`,
		RevenueByDay: `SELECT day, currency, gross - refunded AS net FROM analytics_revenue_daily
		WHERE workspace_id = ? AND day >= ? AND day < ? AND orders + refunds > 0 ORDER BY currency, day`,
		CompletionsByDay: `SELECT day, enrollments_completed AS n FROM analytics_activity_daily
		WHERE workspace_id = ? AND day >= ? AND day < ? AND enrollments_completed > 0 ORDER BY day`,
	})}
}

var _ query.ReadModel = (*Summary)(nil)

// Counts sums the days of [start, end) (both at 00:00 UTC).
func (a *Summary) Counts(ctx context.Context, workspaceID string, start, end time.Time) (query.Counts, error) {
	q := a.DB.Read(ctx)
	from, to := int64(command.DayOf(start)), int64(command.DayOf(end))
	rows, err := sqldb.All[struct {
		Currency string
		command.Revenue
	}](ctx, q, a.Q.Revenue, workspaceID, from, to)
	if err != nil {
		return query.Counts{}, err
	}
	var revenue []query.Revenue
	for _, r := range rows {
		revenue = append(revenue, query.RevenueOf(r.Currency, r.Revenue))
	}
	var act command.Activity
	if err := sqldb.One(ctx, q, &act, sql.ErrNoRows, a.Q.Activity, workspaceID, from, to); err != nil {
		return query.Counts{}, err
	}
	return query.CountsOf(revenue, act), nil
}

// LastEventAt is the time of the workspace's last event the projection applied (the
// zero time if it applied none yet).
func (a *Summary) LastEventAt(ctx context.Context, workspaceID string) (time.Time, error) {
	var last time.Time
	if _, err := sqldb.Found(sqldb.One(ctx, a.DB.Read(ctx), &last, sql.ErrNoRows, a.Q.Progress, workspaceID)); err != nil {
		return time.Time{}, err
	}
	return last.UTC(), nil
}
