package testenv

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

// SourceAnalytics computes the summary figures from the source tables (orders, students,
// enrollments, lesson progress): the definition the analytics projection must reproduce,
// kept as the tests' oracle (the service answers from the projection only).
type SourceAnalytics struct {
	db                                             *sqldb.DB
	sales, refunds, students, enrollments, lessons string
}

// NewSourceAnalytics prepares the statements for db's dialect. Every window is [start, end)
// on instants, which compare correctly on both engines (UTC text sorts in time order).
// Sums of BIGINT are NUMERIC on PostgreSQL: cast back so both engines scan an int64.
func NewSourceAnalytics(db *sqldb.DB) *SourceAnalytics {
	return &SourceAnalytics{
		db: db,
		sales: db.Rebind(`SELECT currency, CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total, COUNT(*) AS n FROM orders
			WHERE workspace_id = ? AND paid_at >= ? AND paid_at < ? GROUP BY currency`),
		refunds: db.Rebind(`SELECT o.currency, CAST(COALESCE(SUM(h.amount), 0) AS BIGINT) AS total, COUNT(*) AS n
			FROM order_history h JOIN orders o ON o.id = h.order_id
			WHERE h.workspace_id = ? AND h.type = 'refunded' AND h.at >= ? AND h.at < ? GROUP BY o.currency`),
		// Students created in the window count even if deleted since: they were new then.
		students: db.Rebind(`SELECT COUNT(*) FROM students WHERE workspace_id = ? AND created_at >= ? AND created_at < ?`),
		enrollments: db.Rebind(`SELECT
			COALESCE(SUM(CASE WHEN created_at >= ? AND created_at < ? THEN 1 ELSE 0 END), 0) AS created,
			COALESCE(SUM(CASE WHEN revoked_at >= ? AND revoked_at < ? THEN 1 ELSE 0 END), 0) AS revoked,
			COALESCE(SUM(CASE WHEN completed_at >= ? AND completed_at < ? THEN 1 ELSE 0 END), 0) AS completed,
			COALESCE(SUM(CASE WHEN created_at >= ? AND created_at < ? AND completed_at IS NOT NULL THEN 1 ELSE 0 END), 0) AS cohort_completed
			FROM enrollments WHERE workspace_id = ?`),
		lessons: db.Rebind(`SELECT COUNT(*) FROM lesson_progress WHERE workspace_id = ? AND completed_at >= ? AND completed_at < ?`),
	}
}

type moneyRow struct {
	Currency string `db:"currency"`
	Total    int64  `db:"total"`
	N        int64  `db:"n"`
}

// Counts computes the figures of the workspace between start (inclusive) and end (exclusive);
// the cohort's completions are those recorded by now.
func (a *SourceAnalytics) Counts(ctx context.Context, workspaceID string, start, end time.Time) (query.Counts, error) {
	q := a.db.Read(ctx)
	start, end = start.UTC(), end.UTC()
	var out query.Counts
	var sales, refunds []moneyRow
	if err := q.SelectContext(ctx, &sales, a.sales, workspaceID, start, end); err != nil {
		return out, fmt.Errorf("sales: %w", err)
	}
	if err := q.SelectContext(ctx, &refunds, a.refunds, workspaceID, start, end); err != nil {
		return out, fmt.Errorf("refunds: %w", err)
	}
	byCurrency := map[string]*query.Revenue{}
	row := func(currency string) *query.Revenue {
		if byCurrency[currency] == nil {
			byCurrency[currency] = &query.Revenue{Currency: currency}
		}
		return byCurrency[currency]
	}
	for _, s := range sales {
		r := row(s.Currency)
		r.Gross, r.Orders = s.Total, s.N
	}
	for _, s := range refunds {
		r := row(s.Currency)
		r.Refunded, r.Refunds = s.Total, s.N
	}
	for _, r := range byCurrency {
		r.Net = r.Gross - r.Refunded
		out.Revenue = append(out.Revenue, *r)
	}
	sort.Slice(out.Revenue, func(i, j int) bool { return out.Revenue[i].Currency < out.Revenue[j].Currency })

	if err := q.GetContext(ctx, &out.NewStudents, a.students, workspaceID, start, end); err != nil {
		return out, fmt.Errorf("new students: %w", err)
	}
	var e struct {
		Created         int64 `db:"created"`
		Revoked         int64 `db:"revoked"`
		Completed       int64 `db:"completed"`
		CohortCompleted int64 `db:"cohort_completed"`
	}
	if err := q.GetContext(ctx, &e, a.enrollments, start, end, start, end, start, end, start, end, workspaceID); err != nil {
		return out, fmt.Errorf("enrollments: %w", err)
	}
	out.Enrollments = query.Enrollments{Created: e.Created, Revoked: e.Revoked, Completed: e.Completed}
	out.Cohort, out.CohortCompleted = e.Created, e.CohortCompleted
	if err := q.GetContext(ctx, &out.LessonsCompleted, a.lessons, workspaceID, start, end); err != nil {
		return out, fmt.Errorf("lessons completed: %w", err)
	}
	return out, nil
}
