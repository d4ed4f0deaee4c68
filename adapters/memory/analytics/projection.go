package analytics

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
)

var (
	_ command.Projection = Projection{}
	_ command.Resetter   = Projection{}
)

// AddRevenue adds r to the currency's row of the day.
func (p Projection) AddRevenue(_ context.Context, workspaceID string, day command.Day, currency string, r command.Revenue) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := revenueKey{dayKey{workspaceID, day}, currency}
	p.revenue[k] = addRevenue(p.revenue[k], r)
	return nil
}

func addRevenue(a, b command.Revenue) command.Revenue {
	return command.Revenue{Gross: a.Gross + b.Gross, Refunded: a.Refunded + b.Refunded, Orders: a.Orders + b.Orders, Refunds: a.Refunds + b.Refunds}
}

// AddActivity adds a to the day's row.
func (p Projection) AddActivity(_ context.Context, workspaceID string, day command.Day, a command.Activity) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	k := dayKey{workspaceID, day}
	p.activity[k] = addActivity(p.activity[k], a)
	return nil
}

func addActivity(a, b command.Activity) command.Activity {
	return command.Activity{
		StudentsNew: a.StudentsNew + b.StudentsNew, EnrollmentsCreated: a.EnrollmentsCreated + b.EnrollmentsCreated,
		EnrollmentsRevoked: a.EnrollmentsRevoked + b.EnrollmentsRevoked, EnrollmentsCompleted: a.EnrollmentsCompleted + b.EnrollmentsCompleted,
		CohortCompleted: a.CohortCompleted + b.CohortCompleted, LessonsCompleted: a.LessonsCompleted + b.LessonsCompleted,
	}
}

// Enrollment reads what the projection remembers of an enrollment.
func (p Projection) Enrollment(_ context.Context, workspaceID, enrollmentID string) (command.EnrollmentState, bool, error) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	s, ok := p.enrollments[enrollmentKey{workspaceID, enrollmentID}]
	return cloneState(s), ok, nil
}

// SaveEnrollment stores the state of an enrollment.
func (p Projection) SaveEnrollment(_ context.Context, workspaceID, enrollmentID string, s command.EnrollmentState) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.enrollments[enrollmentKey{workspaceID, enrollmentID}] = cloneState(s)
	return nil
}

func cloneState(s command.EnrollmentState) command.EnrollmentState {
	if s.RevokedDay != nil {
		d := *s.RevokedDay
		s.RevokedDay = &d
	}
	return s
}

// Advance records the last event of the workspace applied.
func (p Projection) Advance(_ context.Context, workspaceID, _ string, eventAt, _ time.Time) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.progress[workspaceID] = eventAt.UTC()
	return nil
}

// Reset empties the read model of every workspace.
func (p Projection) Reset(context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.reset()
	return nil
}
