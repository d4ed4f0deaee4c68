package analytics

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
)

// change is one addition to the read model a transaction defers to its commit: to a
// day's revenue in a currency, to a day's activity, or the workspace's progress.
type change struct {
	ws       string
	day      command.Day
	currency string
	revenue  *command.Revenue
	activity *command.Activity
	progress *progress
}

type progress struct {
	eventID            string
	eventAt, appliedAt time.Time
}

type revenueKey struct {
	ws       string
	day      command.Day
	currency string
}

type activityKey struct {
	ws  string
	day command.Day
}

// folded is a transaction's changes summed per row, rows in the order first touched.
type folded struct {
	revenue      map[revenueKey]*command.Revenue
	revenueOrder []revenueKey
	activity     map[activityKey]*command.Activity
	activityKeys []activityKey
	progress     map[string]progress
	progressKeys []string
}

func fold(changes []change) folded {
	f := folded{revenue: map[revenueKey]*command.Revenue{}, activity: map[activityKey]*command.Activity{}, progress: map[string]progress{}}
	for _, c := range changes {
		switch {
		case c.revenue != nil:
			k := revenueKey{c.ws, c.day, c.currency}
			sum, ok := f.revenue[k]
			if !ok {
				sum = &command.Revenue{}
				f.revenue[k], f.revenueOrder = sum, append(f.revenueOrder, k)
			}
			sum.Gross, sum.Refunded = sum.Gross+c.revenue.Gross, sum.Refunded+c.revenue.Refunded
			sum.Orders, sum.Refunds = sum.Orders+c.revenue.Orders, sum.Refunds+c.revenue.Refunds
		case c.activity != nil:
			k := activityKey{c.ws, c.day}
			sum, ok := f.activity[k]
			if !ok {
				sum = &command.Activity{}
				f.activity[k], f.activityKeys = sum, append(f.activityKeys, k)
			}
			a := c.activity
			sum.StudentsNew += a.StudentsNew
			sum.EnrollmentsCreated += a.EnrollmentsCreated
			sum.EnrollmentsRevoked += a.EnrollmentsRevoked
			sum.EnrollmentsCompleted += a.EnrollmentsCompleted
			sum.CohortCompleted += a.CohortCompleted
			sum.LessonsCompleted += a.LessonsCompleted
		case c.progress != nil:
			if _, ok := f.progress[c.ws]; !ok {
				f.progressKeys = append(f.progressKeys, c.ws)
			}
			f.progress[c.ws] = *c.progress // events come in stream order: the last one wins
		}
	}
	return f
}

// upsert is a multi-row additive upsert: the text for n rows.
type upsert struct {
	head, tail string
	columns    int
}

func (u upsert) text(rows int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", u.columns), ", ") + ")"
	return u.head + strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ") + u.tail
}

var (
	revenueUpsert = upsert{columns: 7,
		head: `INSERT INTO analytics_revenue_daily (workspace_id, day, currency, gross, refunded, orders, refunds) VALUES `,
		tail: ` ON CONFLICT (workspace_id, day, currency) DO UPDATE SET
			gross = analytics_revenue_daily.gross + excluded.gross,
			refunded = analytics_revenue_daily.refunded + excluded.refunded,
			orders = analytics_revenue_daily.orders + excluded.orders,
			refunds = analytics_revenue_daily.refunds + excluded.refunds`}
	activityUpsert = upsert{columns: 8,
		head: `INSERT INTO analytics_activity_daily (workspace_id, day, students_new, enrollments_created,
			enrollments_revoked, enrollments_completed, cohort_completed, lessons_completed) VALUES `,
		tail: ` ON CONFLICT (workspace_id, day) DO UPDATE SET
			students_new = analytics_activity_daily.students_new + excluded.students_new,
			enrollments_created = analytics_activity_daily.enrollments_created + excluded.enrollments_created,
			enrollments_revoked = analytics_activity_daily.enrollments_revoked + excluded.enrollments_revoked,
			enrollments_completed = analytics_activity_daily.enrollments_completed + excluded.enrollments_completed,
			cohort_completed = analytics_activity_daily.cohort_completed + excluded.cohort_completed,
			lessons_completed = analytics_activity_daily.lessons_completed + excluded.lessons_completed`}
	progressUpsert = upsert{columns: 4,
		head: `INSERT INTO analytics_progress (workspace_id, last_event_id, last_event_at, applied_at) VALUES `,
		tail: ` ON CONFLICT (workspace_id) DO UPDATE SET last_event_id = excluded.last_event_id,
			last_event_at = excluded.last_event_at, applied_at = excluded.applied_at`}
)

// rowsPerStatement bounds a statement's rows (SQLite allows 999 parameters in old builds;
// a rebuild may touch every row of the read model in one transaction).
const rowsPerStatement = 100

// statement is one upsert's text (with '?') and arguments.
type statement struct {
	text string
	args []any
}

// writeChanges writes a transaction's deferred changes: per table, one multi-row upsert per
// rowsPerStatement rows touched. On PostgreSQL every statement goes in one round trip
// (simple protocol); on SQLite, whose statements are calls in the process, one call each.
func (p *Projection) writeChanges(ctx context.Context, changes []change) error {
	f := fold(changes)
	var stmts []statement
	stmts = appendUpserts(stmts, revenueUpsert, len(f.revenueOrder), func(i int) []any {
		k := f.revenueOrder[i]
		r := f.revenue[k]
		return []any{k.ws, int64(k.day), k.currency, r.Gross, r.Refunded, r.Orders, r.Refunds}
	})
	stmts = appendUpserts(stmts, activityUpsert, len(f.activityKeys), func(i int) []any {
		k := f.activityKeys[i]
		a := f.activity[k]
		return []any{k.ws, int64(k.day), a.StudentsNew, a.EnrollmentsCreated, a.EnrollmentsRevoked,
			a.EnrollmentsCompleted, a.CohortCompleted, a.LessonsCompleted}
	})
	stmts = appendUpserts(stmts, progressUpsert, len(f.progressKeys), func(i int) []any {
		ws := f.progressKeys[i]
		pr := f.progress[ws]
		return []any{ws, pr.eventID, pr.eventAt, pr.appliedAt}
	})
	if len(stmts) == 0 {
		return nil
	}
	q := p.DB.Write(ctx)
	if p.DB.Dialect == sqldb.Postgres {
		texts := make([]string, len(stmts))
		args := []any{sqldb.SimpleProtocol}
		for i, s := range stmts {
			texts[i] = s.text
			args = append(args, s.args...)
		}
		if _, err := q.ExecContext(ctx, p.DB.Rebind(strings.Join(texts, ";\n")), args...); err != nil {
			return fmt.Errorf("write analytics counters: %w", err)
		}
		return nil
	}
	for _, s := range stmts {
		if _, err := q.ExecContext(ctx, p.DB.Rebind(s.text), s.args...); err != nil {
			return fmt.Errorf("write analytics counters: %w", err)
		}
	}
	return nil
}

// appendUpserts adds u's statements for n rows, row i's values from values(i).
func appendUpserts(stmts []statement, u upsert, n int, values func(i int) []any) []statement {
	for start := 0; start < n; start += rowsPerStatement {
		end := min(start+rowsPerStatement, n)
		s := statement{text: u.text(end - start)}
		for i := start; i < end; i++ {
			s.args = append(s.args, values(i)...)
		}
		stmts = append(stmts, s)
	}
	return stmts
}
