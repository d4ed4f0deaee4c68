// Package command keeps the analytics read model up to date from the event stream.
package command

import (
	"context"
	"time"
)

// Day is a UTC day: the number of days since 1970-01-01.
type Day int64

// DayOf returns the UTC day of t.
func DayOf(t time.Time) Day { return Day(t.UTC().Unix() / 86400) }

// Start is the day's first instant, 00:00 UTC.
func (d Day) Start() time.Time { return time.Unix(int64(d)*86400, 0).UTC() }

// Revenue is an addition to one currency's money of a day, in minor units.
type Revenue struct {
	Gross, Refunded, Orders, Refunds int64
}

// Activity is an addition to a day's counts (negative to take one back).
type Activity struct {
	StudentsNew, EnrollmentsCreated, EnrollmentsRevoked, EnrollmentsCompleted int64
	CohortCompleted, LessonsCompleted                                         int64
}

// EnrollmentState is what the projection remembers of an enrollment.
type EnrollmentState struct {
	RevokedDay *Day // the day its current revocation was counted on; nil when not revoked
}

// Projection writes the read model in the transaction carried by ctx (the consumer's).
// Every write is additive, so it is exactly-once only thanks to the caller's ledger.
type Projection interface {
	AddRevenue(ctx context.Context, workspaceID string, day Day, currency string, r Revenue) error
	AddActivity(ctx context.Context, workspaceID string, day Day, a Activity) error
	// Enrollment returns the state of an enrollment; found is false for one never seen.
	Enrollment(ctx context.Context, workspaceID, enrollmentID string) (s EnrollmentState, found bool, err error)
	SaveEnrollment(ctx context.Context, workspaceID, enrollmentID string, s EnrollmentState) error
	// Advance records the last event of the workspace applied (the freshness of its
	// summary). Per workspace, not per projection: a workspace's events are consumed in
	// one partition, so partitions consumed at once never write the same row.
	Advance(ctx context.Context, workspaceID, eventID string, eventAt, appliedAt time.Time) error
}

// Resetter empties the read model of every workspace in the transaction carried by ctx
// (projections rebuild: the consumer then replays the outbox into it).
type Resetter interface {
	Reset(ctx context.Context) error
}
