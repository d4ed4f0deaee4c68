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
// transaction in the context (the consumer's batch transaction). The daily counters and
// the progress are written once per transaction, just before its commit, when the
// transaction defers writes (sqldb.Deferred: the router's batches, replay and rebuild
// transactions); otherwise, and always for the enrollments' state (read back while
// applying), at once.
type Projection struct {
	sqldb.Prepared[projectionStatements]
	// counters holds, in a consumer's transaction, the additions and the progress of its
	// events until just before the commit: one upsert per row touched per batch instead of
	// two per event (deferred.go).
	counters *sqldb.Deferred[change]
}

type projectionStatements struct {
	Revenue, Activity, Enrollment, SaveEnrollment, Advance string
	// A rebuild empties every table of the read model (all workspaces at once).
	ResetRevenue, ResetActivity, ResetEnrollments, ResetProgress string
}

// NewProjection prepares the statements for db's dialect (the same text runs on both:
// ON CONFLICT upserts exist in PostgreSQL and SQLite).
func NewProjection(db *sqldb.DB) *Projection {
	p := &Projection{Prepared: sqldb.Prepare(db, projectionStatements{
		Revenue:    revenueUpsert.text(1),
		Activity:   activityUpsert.text(1),
		Enrollment: `SELECT revoked_day FROM analytics_enrollments WHERE workspace_id = ? AND enrollment_id = ?`,
		SaveEnrollment: `INSERT INTO analytics_enrollments (workspace_id, enrollment_id, revoked_day) VALUES (?, ?, ?)
			ON CONFLICT (workspace_id, enrollment_id) DO UPDATE SET revoked_day = excluded.revoked_day`,
		Advance:      progressUpsert.text(1),
		ResetRevenue: `DELETE FROM analytics_revenue_daily`, ResetActivity: `DELETE FROM analytics_activity_daily`,
		ResetEnrollments: `DELETE FROM analytics_enrollments`, ResetProgress: `DELETE FROM analytics_progress`,
	})}
	p.counters = sqldb.NewDeferred(p.writeChanges)
	return p
}

var (
	_ command.Projection = (*Projection)(nil)
	_ command.Resetter   = (*Projection)(nil)
)

// AddRevenue adds r to the currency's row of the day.
func (p *Projection) AddRevenue(ctx context.Context, workspaceID string, day command.Day, currency string, r command.Revenue) error {
	if p.counters.Add(ctx, change{ws: workspaceID, day: day, currency: currency, revenue: &r}) {
		return nil
	}
	return p.DB.Exec(ctx, "add revenue", p.Q.Revenue, workspaceID, int64(day), currency, r.Gross, r.Refunded, r.Orders, r.Refunds)
}

// AddActivity adds a to the day's row.
func (p *Projection) AddActivity(ctx context.Context, workspaceID string, day command.Day, a command.Activity) error {
	if p.counters.Add(ctx, change{ws: workspaceID, day: day, activity: &a}) {
		return nil
	}
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
	if p.counters.Add(ctx, change{ws: workspaceID, progress: &progress{eventID: eventID, eventAt: eventAt.UTC(), appliedAt: appliedAt.UTC()}}) {
		return nil
	}
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
