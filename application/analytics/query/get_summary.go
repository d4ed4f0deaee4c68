package query

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Window rules.
const (
	DefaultDays = 30
	MaxDays     = 366
	dateLayout  = "2006-01-02"
)

// GetSummary asks for the summary between two UTC dates (YYYY-MM-DD, both inclusive);
// empty means the default: To is today, From is To minus 29 days (30 days).
type GetSummary struct {
	WorkspaceID string
	From, To    string
}

// Reads answers the module's queries from the read model.
type Reads struct {
	ReadModel ReadModel
	Daily     DailyReadModel
	Backlog   Backlog
	Clock     platform.Clock
	Guard     RebuildGuard
}

// GetSummary validates the window and sums the projection's days in it.
func (r Reads) GetSummary(ctx context.Context, q GetSummary) (Summary, error) {
	now := r.Clock.Now().UTC()
	from, to, err := window(q.From, q.To, now)
	if err != nil {
		return Summary{}, err
	}
	// Freshness first: the projection only moves forward, so the counts read after it
	// include at least everything up to asOf.
	asOf, err := r.asOf(ctx, q.WorkspaceID, now)
	if err != nil {
		return Summary{}, fmt.Errorf("analytics freshness: %w", err)
	}
	c, err := r.ReadModel.Counts(ctx, q.WorkspaceID, from, to.AddDate(0, 0, 1))
	if err != nil {
		return Summary{}, fmt.Errorf("analytics summary: %w", err)
	}
	s := Summary{
		Window:           Window{From: from.Format(dateLayout), To: to.Format(dateLayout)},
		Revenue:          c.Revenue,
		Students:         Students{New: c.NewStudents},
		Enrollments:      c.Enrollments,
		LessonsCompleted: c.LessonsCompleted,
		CompletionRate:   Rate(c.CohortCompleted, c.Cohort),
		AsOf:             asOf.UTC(),
	}
	if s.Revenue == nil {
		s.Revenue = []Revenue{}
	}
	return s, nil
}

// asOf tells how fresh the workspace's figures are: now when the projection has applied
// every event recorded so far in the workspace's partition, otherwise the time of the
// workspace's last event it applied (the zero time if none).
func (r Reads) asOf(ctx context.Context, workspaceID string, now time.Time) (time.Time, error) {
	caughtUp, err := r.Backlog.CaughtUp(ctx, workspaceID)
	if err != nil {
		return time.Time{}, err
	}
	if caughtUp {
		return now, nil
	}
	return r.ReadModel.LastEventAt(ctx, workspaceID)
}

// Rate is part/whole rounded half away from zero to 4 decimals, 0 when whole is 0.
func Rate(part, whole int64) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(float64(part)/float64(whole)*10000) / 10000
}

// window resolves the days [from, to], both at 00:00 UTC.
func window(rawFrom, rawTo string, now time.Time) (from, to time.Time, err error) {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	to = today
	if rawTo != "" {
		if to, err = parseDate("to", rawTo); err != nil {
			return
		}
	}
	from = to.AddDate(0, 0, -(DefaultDays - 1))
	if rawFrom != "" {
		if from, err = parseDate("from", rawFrom); err != nil {
			return
		}
	}
	if from.After(to) {
		return from, to, kernel.Invalid("from", "from (%s) must not be after to (%s)", from.Format(dateLayout), to.Format(dateLayout))
	}
	if days := int(to.Sub(from).Hours()/24) + 1; days > MaxDays {
		return from, to, kernel.Invalid("to", "the window spans %d days; from and to may span at most %d days", days, MaxDays)
	}
	return from, to, nil
}

func parseDate(field, raw string) (time.Time, error) {
	d, err := time.Parse(dateLayout, raw)
	if err != nil || d.Format(dateLayout) != raw {
		return time.Time{}, kernel.Invalid(field, "%s must be a UTC date as YYYY-MM-DD, such as 2026-11-01", field)
	}
	return d, nil
}
