// Package query computes the analytics summary of a workspace over a window of UTC days.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
)

// Summary is the response of GET /api/v1/analytics/summary.
type Summary struct {
	Window           Window      `json:"window"`
	Revenue          []Revenue   `json:"revenue"`
	Students         Students    `json:"students"`
	Enrollments      Enrollments `json:"enrollments"`
	LessonsCompleted int64       `json:"lessonsCompleted"`
	CompletionRate   float64     `json:"completionRate"`
	AsOf             time.Time   `json:"asOf"`
}

// Window is the UTC days covered, both inclusive, as YYYY-MM-DD.
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Revenue is one currency's money in the window, in minor units: gross is what orders
// paid in the window brought, refunded what refunds made in the window returned (of any
// order), net = gross - refunded (negative when refunds outweigh sales).
type Revenue struct {
	Currency string `json:"currency"`
	Gross    int64  `json:"gross"`
	Refunded int64  `json:"refunded"`
	Net      int64  `json:"net"`
	Orders   int64  `json:"orders"`
	Refunds  int64  `json:"refunds"`
}

// Students counts students created in the window.
type Students struct {
	New int64 `json:"new"`
}

// Enrollments counts enrollments created, revoked and completed in the window.
type Enrollments struct {
	Created   int64 `json:"created"`
	Revoked   int64 `json:"revoked"`
	Completed int64 `json:"completed"`
}

// Counts are the raw figures of a window [Start, End).
type Counts struct {
	Revenue          []Revenue // sorted by currency, Net filled
	NewStudents      int64
	Enrollments      Enrollments
	LessonsCompleted int64
	// Cohort is the enrollments created in the window; CohortCompleted those of them
	// completed by asOf.
	Cohort, CohortCompleted int64
}

// RevenueOf is a currency's money in the summary's terms (Net filled).
func RevenueOf(currency string, r command.Revenue) Revenue {
	return Revenue{Currency: currency, Gross: r.Gross, Refunded: r.Refunded, Net: r.Gross - r.Refunded, Orders: r.Orders, Refunds: r.Refunds}
}

// CountsOf is a window's figures: its revenue by currency and the sum of its activity
// rows (completionRate's cohort is the enrollments created in the window).
func CountsOf(revenue []Revenue, a command.Activity) Counts {
	return Counts{
		Revenue: revenue, NewStudents: a.StudentsNew, LessonsCompleted: a.LessonsCompleted,
		Enrollments: Enrollments{Created: a.EnrollmentsCreated, Revoked: a.EnrollmentsRevoked, Completed: a.EnrollmentsCompleted},
		Cohort:      a.EnrollmentsCreated, CohortCompleted: a.CohortCompleted,
	}
}

// ReadModel answers from the analytics projection.
type ReadModel interface {
	// Counts sums the figures of one workspace between two instants at 00:00 UTC:
	// revenue by currency (only currencies with an order or a refund in the window),
	// nil when there is none.
	Counts(ctx context.Context, workspaceID string, start, end time.Time) (Counts, error)
	// LastEventAt is the time of the workspace's last event the projection applied
	// (command.Projection.Advance), the zero time if none.
	LastEventAt(ctx context.Context, workspaceID string) (time.Time, error)
}

// Backlog tells whether the projection's consumer has applied every event recorded so
// far in the workspace's partition (the event pipeline answers it).
type Backlog interface {
	CaughtUp(ctx context.Context, workspaceID string) (bool, error)
}
