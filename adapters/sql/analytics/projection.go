// Package analytics is the analytics module's persistence: it alone names the read
// model's tables (analytics_revenue_daily, analytics_activity_daily,
// analytics_enrollments, analytics_progress; see docs/architecture.md, "Table
// ownership"). Projection is the projection's write port, written through the event
// consumer's transaction; Summary serves the summary and the days of a window.
package analytics

import (
	"context"
	"database/sql"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/analytics/command"
)

// Projection writes the analytics read model with additive upserts, through the
// transaction in the context (the consumer's batch transaction).
type Projection struct {
	sqldb.Prepared[projectionStatements]
}

type projectionStatements struct {
	Revenue, Activity, Enrollment, SaveEnrollment, Advance string
	// A rebuild empties every table of the read model (all workspaces at once).
	ResetRevenue, ResetActivity, ResetEnrollments, ResetProgress string
}

// NewProjection prepares the statements for db's dialect (the same text runs on both:
// ON CONFLICT upserts exist in PostgreSQL and SQLite).
func NewProjection(db *sqldb.DB) *Projection {
	return &Projection{sqldb.Prepare(db, projectionStatements{
		Revenue: `INSERT INTO analytics_revenue_daily (workspace_id, day, currency, gross, refunded, orders, refunds)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, day, currency) DO UPDATE SET
			gross = analytics_revenue_daily.gross + excluded.gross,
			refunded = analytics_revenue_daily.refunded + excluded.refunded,
			orders = analytics_revenue_daily.orders + excluded.orders,
			refunds = analytics_revenue_daily.refunds + excluded.refunds`,
		Activity: `INSERT INTO analytics_activity_daily (workspace_id, day, students_new, enrollments_created,
			enrollments_revoked, enrollments_completed, cohort_completed, lessons_completed)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, day) DO UPDATE SET
			students_new = analytics_activity_daily.students_new + excluded.students_new,
			enrollments_created = analytics_activity_daily.enrollments_created + excluded.enrollments_created,
			enrollments_revoked = analytics_activity_daily.enrollments_revoked + excluded.enrollments_revoked,
			enrollments_completed = analytics_activity_daily.enrollments_completed + excluded.enrollments_completed,
			cohort_completed = analytics_activity_daily.cohort_completed + excluded.cohort_completed,
			lessons_completed = analytics_activity_daily.lessons_completed + excluded.lessons_completed`,
		Enrollment: `SELECT revoked_day FROM analytics_enrollments WHERE workspace_id = ? AND enrollment_id = ?`,
		SaveEnrollment: `INSERT INTO analytics_enrollments (workspace_id, enrollment_id, revoked_day) VALUES (?, ?, ?)
			ON CONFLICT (workspace_id, enrollment_id) DO UPDATE SET revoked_day = excluded.revoked_day`,
		Advance: `INSERT INTO analytics_progress (workspace_id, last_event_id, last_event_at, applied_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (workspace_id) DO UPDATE SET last_event_id = excluded.last_event_id,
			last_event_at = excluded.last_event_at, applied_at = excluded.applied_at`,
		ResetRevenue: `DELETE FROM analytics_revenue_daily`, ResetActivity: `DELETE FROM analytics_activity_daily`,
		ResetEnrollments: `DELETE FROM analytics_enrollments`, ResetProgress: `DELETE FROM analytics_progress`,
	})}
}

var (
	_ command.Projection = (*Projection)(nil)
	_ command.Resetter   = (*Projection)(nil)
)

// AddRevenue adds r to the currency's row of the day.
func (p *Projection) AddRevenue(ctx context.Context, workspaceID string, day command.Day, currency string, r command.Revenue) error {
	return p.DB.Exec(ctx, "add revenue", p.Q.Revenue, workspaceID, int64(day), currency, r.Gross, r.Refunded, r.Orders, r.Refunds)
}

// AddActivity adds a to the day's row.
func (p *Projection) AddActivity(ctx context.Context, workspaceID string, day command.Day, a command.Activity) error {
	return p.DB.Exec(ctx, "add activity", p.Q.Activity, workspaceID, int64(day), a.StudentsNew, a.EnrollmentsCreated,
		a.EnrollmentsRevoked, a.EnrollmentsCompleted, a.CohortCompleted, a.LessonsCompleted)
}

// Enrollment reads what the projection remembers of an enrollment.
func (p *Projection) Enrollment(ctx context.Context, workspaceID, enrollmentID string) (command.EnrollmentState, bool, error) {
	var revoked sql.NullInt64
	found, err := sqldb.Found(sqldb.One(ctx, p.DB.Write(ctx), &revoked, sql.ErrNoRows, p.Q.Enrollment, workspaceID, enrollmentID))
	if !found {
		return command.EnrollmentState{}, false, err
	}
	var s command.EnrollmentState
	if revoked.Valid {
		d := command.Day(revoked.Int64)
		s.RevokedDay = &d
	}
	return s, true, nil
}

// SaveEnrollment stores the state of an enrollment.
func (p *Projection) SaveEnrollment(ctx context.Context, workspaceID, enrollmentID string, s command.EnrollmentState) error {
	var revoked sql.NullInt64
	if s.RevokedDay != nil {
		revoked = sql.NullInt64{Int64: int64(*s.RevokedDay), Valid: true}
	}
	return p.DB.Exec(ctx, "save enrollment state", p.Q.SaveEnrollment, workspaceID, enrollmentID, revoked)
}

// Advance records the last event of the workspace applied.
func (p *Projection) Advance(ctx context.Context, workspaceID, eventID string, eventAt, appliedAt time.Time) error {
	return p.DB.Exec(ctx, "advance analytics progress", p.Q.Advance, workspaceID, eventID, eventAt.UTC(), appliedAt.UTC())
}

// Reset empties the read model in the transaction of ctx (projections rebuild).
func (p *Projection) Reset(ctx context.Context) error {
	for _, q := range []string{p.Q.ResetRevenue, p.Q.ResetActivity, p.Q.ResetEnrollments, p.Q.ResetProgress} {
		if err := p.DB.Exec(ctx, "reset analytics read model", q); err != nil {
			return err
		}
	}
	return nil
}
