package analytics

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

// Summary answers the summary from the read model only: a window of N days is a sum
// over at most N rows per currency and N activity rows, by primary-key prefix.
type Summary struct {
	db                          *sqldb.DB
	revenue, activity, progress string
}

// NewSummary prepares the statements. Sums of BIGINT are NUMERIC on PostgreSQL: cast
// back so both engines scan an int64.
func NewSummary(db *sqldb.DB) *Summary {
	return &Summary{
		db: db,
		revenue: db.Rebind(`SELECT currency, CAST(SUM(gross) AS BIGINT) AS gross, CAST(SUM(refunded) AS BIGINT) AS refunded,
			CAST(SUM(orders) AS BIGINT) AS orders, CAST(SUM(refunds) AS BIGINT) AS refunds
			FROM analytics_revenue_daily WHERE workspace_id = ? AND day >= ? AND day < ?
			GROUP BY currency HAVING SUM(orders) + SUM(refunds) > 0 ORDER BY currency`),
		activity: db.Rebind(`SELECT CAST(COALESCE(SUM(students_new), 0) AS BIGINT) AS students_new,
			CAST(COALESCE(SUM(enrollments_created), 0) AS BIGINT) AS enrollments_created,
			CAST(COALESCE(SUM(enrollments_revoked), 0) AS BIGINT) AS enrollments_revoked,
			CAST(COALESCE(SUM(enrollments_completed), 0) AS BIGINT) AS enrollments_completed,
			CAST(COALESCE(SUM(cohort_completed), 0) AS BIGINT) AS cohort_completed,
			CAST(COALESCE(SUM(lessons_completed), 0) AS BIGINT) AS lessons_completed
			FROM analytics_activity_daily WHERE workspace_id = ? AND day >= ? AND day < ?`),
		progress: db.Rebind(`SELECT last_event_at FROM analytics_progress WHERE workspace_id = ?`),
	}
}

var _ query.ReadModel = (*Summary)(nil)

// Counts sums the days of [start, end) (both at 00:00 UTC).
func (a *Summary) Counts(ctx context.Context, workspaceID string, start, end time.Time) (query.Counts, error) {
	q := a.db.Read(ctx)
	from, to := int64(command.DayOf(start)), int64(command.DayOf(end))
	var rows []struct {
		Currency string `db:"currency"`
		Gross    int64  `db:"gross"`
		Refunded int64  `db:"refunded"`
		Orders   int64  `db:"orders"`
		Refunds  int64  `db:"refunds"`
	}
	if err := q.SelectContext(ctx, &rows, a.revenue, workspaceID, from, to); err != nil {
		return query.Counts{}, fmt.Errorf("revenue: %w", err)
	}
	var revenue []query.Revenue
	for _, r := range rows {
		revenue = append(revenue, query.RevenueOf(r.Currency, command.Revenue{Gross: r.Gross, Refunded: r.Refunded, Orders: r.Orders, Refunds: r.Refunds}))
	}
	var act struct {
		StudentsNew          int64 `db:"students_new"`
		EnrollmentsCreated   int64 `db:"enrollments_created"`
		EnrollmentsRevoked   int64 `db:"enrollments_revoked"`
		EnrollmentsCompleted int64 `db:"enrollments_completed"`
		CohortCompleted      int64 `db:"cohort_completed"`
		LessonsCompleted     int64 `db:"lessons_completed"`
	}
	if err := q.GetContext(ctx, &act, a.activity, workspaceID, from, to); err != nil {
		return query.Counts{}, fmt.Errorf("activity: %w", err)
	}
	return query.CountsOf(revenue, command.Activity(act)), nil
}

// LastEventAt is the time of the workspace's last event the projection applied (the
// zero time if it applied none yet).
func (a *Summary) LastEventAt(ctx context.Context, workspaceID string) (time.Time, error) {
	var last time.Time
	err := a.db.Read(ctx).GetContext(ctx, &last, a.progress, workspaceID)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, fmt.Errorf("analytics progress: %w", err)
	}
	return last.UTC(), nil
}
