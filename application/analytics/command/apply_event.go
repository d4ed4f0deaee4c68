package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Deps are the ports of the module's commands: the platform's (Tx, Clock, Observer; the
// projection publishes nothing) and the read model it writes.
type Deps struct {
	platform.Kit
	Projection Projection
}

// ApplyEvent folds one event into the read model. It reproduces the source-table
// definitions of the summary (docs/resources.md): sales on the day paid, refunds on the
// day made, students on the day created, enrollments created on their first createdAt
// (a reactivation is no new enrollment and undoes the count of its revocation, as the
// enrollment's revokedAt is cleared), revoked on the day revoked, completed on the day
// completed and, for completionRate, on the day the enrollment was created.
// ApplyEvent applies ev in the transaction carried by ctx. It is not idempotent by itself:
// the caller (the consumer's ledger) runs it once per event.
func (d Deps) ApplyEvent(ctx context.Context, ev events.Envelope) (struct{}, error) {
	if err := d.apply(ctx, ev); err != nil {
		return struct{}{}, fmt.Errorf("apply %s %s: %w", ev.Type, ev.ID, err)
	}
	if err := d.Projection.Advance(ctx, ev.WorkspaceID, ev.ID, ev.CreatedAt.UTC(), d.Clock.Now().UTC()); err != nil {
		return struct{}{}, fmt.Errorf("progress after %s: %w", ev.ID, err)
	}
	return struct{}{}, nil
}

// apply reads each payload through its event contract, the one the producer wrote.
func (d Deps) apply(ctx context.Context, ev events.Envelope) error {
	ws := ev.WorkspaceID
	switch ev.Type {
	case events.OrderPaid:
		o, err := events.OrderPaidV1.Decode(ev)
		if err != nil {
			return err
		}
		return d.Projection.AddRevenue(ctx, ws, DayOf(o.PaidAt), o.Currency, Revenue{Gross: o.Amount, Orders: 1})
	case events.OrderRefunded:
		o, err := events.OrderRefundedV1.Decode(ev)
		if err != nil {
			return err
		}
		// History is oldest first: the last entry is the refund this event announces.
		if len(o.History) == 0 || o.History[len(o.History)-1].Type != events.EntryRefunded {
			return fmt.Errorf("order.refunded without a refund as its last history entry")
		}
		r := o.History[len(o.History)-1]
		return d.Projection.AddRevenue(ctx, ws, DayOf(r.At), o.Currency, Revenue{Refunded: r.Amount, Refunds: 1})
	case events.StudentCreated:
		s, err := events.StudentCreatedV1.Decode(ev)
		if err != nil {
			return err
		}
		return d.Projection.AddActivity(ctx, ws, DayOf(s.CreatedAt), Activity{StudentsNew: 1})
	case events.EnrollmentCreated:
		e, err := events.EnrollmentCreatedV1.Decode(ev)
		if err != nil {
			return err
		}
		return d.enrollmentCreated(ctx, ws, e)
	case events.EnrollmentRevoked:
		e, err := events.EnrollmentRevokedV1.Decode(ev)
		if err != nil {
			return err
		}
		return d.enrollmentRevoked(ctx, ws, e)
	case events.EnrollmentCompleted:
		e, err := events.EnrollmentCompletedV1.Decode(ev)
		if err != nil {
			return err
		}
		if e.CompletedAt == nil {
			return fmt.Errorf("enrollment.completed without completedAt")
		}
		if err := d.Projection.AddActivity(ctx, ws, DayOf(*e.CompletedAt), Activity{EnrollmentsCompleted: 1}); err != nil {
			return err
		}
		return d.Projection.AddActivity(ctx, ws, DayOf(e.CreatedAt), Activity{CohortCompleted: 1})
	case events.LessonCompleted:
		l, err := events.LessonCompletedV1.Decode(ev)
		if err != nil {
			return err
		}
		return d.Projection.AddActivity(ctx, ws, DayOf(l.CompletedAt), Activity{LessonsCompleted: 1})
	}
	return nil
}

// enrollmentCreated counts a new enrollment on its creation day; a reactivation (the same
// id again) only takes back the revocation it undoes.
func (d Deps) enrollmentCreated(ctx context.Context, ws string, e events.Enrollment) error {
	st, found, err := d.Projection.Enrollment(ctx, ws, e.ID)
	if err != nil {
		return err
	}
	if !found {
		if err := d.Projection.AddActivity(ctx, ws, DayOf(e.CreatedAt), Activity{EnrollmentsCreated: 1}); err != nil {
			return err
		}
		return d.Projection.SaveEnrollment(ctx, ws, e.ID, EnrollmentState{})
	}
	if st.RevokedDay == nil {
		return nil
	}
	if err := d.Projection.AddActivity(ctx, ws, *st.RevokedDay, Activity{EnrollmentsRevoked: -1}); err != nil {
		return err
	}
	return d.Projection.SaveEnrollment(ctx, ws, e.ID, EnrollmentState{})
}

// enrollmentRevoked counts the revocation on its day and remembers that day.
func (d Deps) enrollmentRevoked(ctx context.Context, ws string, e events.Enrollment) error {
	if e.RevokedAt == nil {
		return fmt.Errorf("enrollment.revoked without revokedAt")
	}
	day := DayOf(*e.RevokedAt)
	if err := d.Projection.AddActivity(ctx, ws, day, Activity{EnrollmentsRevoked: 1}); err != nil {
		return err
	}
	return d.Projection.SaveEnrollment(ctx, ws, e.ID, EnrollmentState{RevokedDay: &day})
}
