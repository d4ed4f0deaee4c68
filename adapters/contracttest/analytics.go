package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

// AnalyticsAdapters is one implementation of the analytics module's ports, over one store.
type AnalyticsAdapters struct {
	Projection command.Projection
	Reset      command.Resetter
	Summary    query.ReadModel
	Daily      query.DailyReadModel
	// NewWorkspace returns the id of a fresh workspace (the read model has no foreign keys).
	NewWorkspace func(t *testing.T) string
}

// AnalyticsFactory opens a store once per suite; each case works in its own workspaces.
type AnalyticsFactory func(t *testing.T) AnalyticsAdapters

// The suites' day: the UTC day of at(0), 2026-11-21.
var analyticsDay = command.DayOf(at(0))

// counts reads the figures of the days [from, to).
func (a AnalyticsAdapters) counts(t *testing.T, ws string, from, to command.Day) query.Counts {
	t.Helper()
	c, err := a.Summary.Counts(context.Background(), ws, from.Start(), to.Start())
	if err != nil {
		t.Fatalf("counts of %s: %v", ws, err)
	}
	return c
}

func (a AnalyticsAdapters) mustAddRevenue(t *testing.T, ws string, day command.Day, currency string, r command.Revenue) {
	t.Helper()
	if err := a.Projection.AddRevenue(context.Background(), ws, day, currency, r); err != nil {
		t.Fatalf("add revenue: %v", err)
	}
}

func (a AnalyticsAdapters) mustAddActivity(t *testing.T, ws string, day command.Day, act command.Activity) {
	t.Helper()
	if err := a.Projection.AddActivity(context.Background(), ws, day, act); err != nil {
		t.Fatalf("add activity: %v", err)
	}
}

// allSucceed fails on the first error of a race.
func allSucceed(t *testing.T, what string, errs []error) {
	t.Helper()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("%s %d: %v", what, i, err)
		}
	}
}

// wantEmpty fails unless c holds nothing (Revenue nil or empty).
func wantEmpty(t *testing.T, what string, c query.Counts) {
	t.Helper()
	if len(c.Revenue) != 0 {
		t.Fatalf("%s: revenue %+v; want none", what, c.Revenue)
	}
	c.Revenue = nil
	mustMatch(t, "value", query.Counts{}, c)
}

// AnalyticsProjection is the contract of command.Projection and command.Resetter: adds
// add up per workspace and UTC day (exactly, when they race), an enrollment's state and
// a workspace's progress are overwritten, Reset empties every workspace. The writes are
// observed through the read port.
func AnalyticsProjection(t *testing.T, open AnalyticsFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("racing adds to one day add up exactly; another workspace's never count", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		const n = 8
		one := command.Activity{StudentsNew: 1, EnrollmentsCreated: 1, EnrollmentsRevoked: 1, EnrollmentsCompleted: 1, CohortCompleted: 1, LessonsCompleted: 1}
		allSucceed(t, "add", Parallel(n, func(i int) error {
			w := ws
			if i == n-1 {
				w = other
			}
			if err := a.Projection.AddRevenue(ctx, w, analyticsDay, "usd", command.Revenue{Gross: 1000, Orders: 1}); err != nil {
				return err
			}
			if err := a.Projection.AddRevenue(ctx, w, analyticsDay, "usd", command.Revenue{Refunded: 100, Refunds: 1}); err != nil {
				return err
			}
			return a.Projection.AddActivity(ctx, w, analyticsDay, one)
		}))
		a.mustAddActivity(t, ws, analyticsDay, command.Activity{EnrollmentsRevoked: -1}) // a reactivation takes one back
		got := a.counts(t, ws, analyticsDay, analyticsDay+1)
		want := query.Counts{
			Revenue:     []query.Revenue{{Currency: "usd", Gross: 7000, Refunded: 700, Net: 6300, Orders: 7, Refunds: 7}},
			NewStudents: 7, LessonsCompleted: 7, Enrollments: query.Enrollments{Created: 7, Revoked: 6, Completed: 7},
			Cohort: 7, CohortCompleted: 7,
		}
		mustMatch(t, "counts", want, got)
		if got := a.counts(t, other, analyticsDay, analyticsDay+1); got.NewStudents != 1 || len(got.Revenue) != 1 || got.Revenue[0].Gross != 1000 {
			t.Fatalf("other workspace: %+v", got)
		}
	})

	t.Run("an enrollment's state reads back as saved, per workspace; racing saves leave one", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		if s, found, err := a.Projection.Enrollment(ctx, ws, "enr_never"); err != nil || found || s.RevokedDay != nil {
			t.Fatalf("unknown enrollment = %+v, %v, %v; want not found", s, found, err)
		}
		if err := a.Projection.SaveEnrollment(ctx, ws, "enr_1", command.EnrollmentState{}); err != nil {
			t.Fatalf("save: %v", err)
		}
		if s, found, err := a.Projection.Enrollment(ctx, ws, "enr_1"); err != nil || !found || s.RevokedDay != nil {
			t.Fatalf("saved active = %+v, %v, %v", s, found, err)
		}
		revoked := analyticsDay - 3
		if err := a.Projection.SaveEnrollment(ctx, ws, "enr_1", command.EnrollmentState{RevokedDay: &revoked}); err != nil {
			t.Fatalf("save revoked: %v", err)
		}
		revoked++ // the store kept its own copy
		if s, found, err := a.Projection.Enrollment(ctx, ws, "enr_1"); err != nil || !found || s.RevokedDay == nil || *s.RevokedDay != analyticsDay-3 {
			t.Fatalf("saved revoked = %+v, %v, %v; want revoked on day %d", s, found, err, analyticsDay-3)
		}
		if _, found, err := a.Projection.Enrollment(ctx, other, "enr_1"); err != nil || found {
			t.Fatalf("another workspace's enrollment found: %v, %v", found, err)
		}
		allSucceed(t, "save", Parallel(8, func(i int) error {
			d := analyticsDay + command.Day(i)
			return a.Projection.SaveEnrollment(ctx, ws, "enr_race", command.EnrollmentState{RevokedDay: &d})
		}))
		s, found, err := a.Projection.Enrollment(ctx, ws, "enr_race")
		if err != nil || !found || s.RevokedDay == nil || *s.RevokedDay < analyticsDay || *s.RevokedDay >= analyticsDay+8 {
			t.Fatalf("after racing saves = %+v, %v, %v; want one of the saved states", s, found, err)
		}
		if err := a.Projection.SaveEnrollment(ctx, ws, "enr_race", command.EnrollmentState{}); err != nil {
			t.Fatalf("clear: %v", err)
		}
		if s, _, _ := a.Projection.Enrollment(ctx, ws, "enr_race"); s.RevokedDay != nil {
			t.Fatalf("a reactivated enrollment still revoked on %d", *s.RevokedDay)
		}
	})

	t.Run("progress is per workspace: the last event applied, workspaces advanced at once", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		if last, err := a.Summary.LastEventAt(ctx, ws); err != nil || !last.IsZero() {
			t.Fatalf("progress before any event = %v, %v; want the zero time", last, err)
		}
		for i := range 3 {
			if err := a.Projection.Advance(ctx, ws, fmt.Sprintf("evt_%d", i), at(i), at(10+i)); err != nil {
				t.Fatalf("advance: %v", err)
			}
		}
		if last, err := a.Summary.LastEventAt(ctx, ws); err != nil || !last.Equal(at(2)) || last.Location() != time.UTC {
			t.Fatalf("progress = %v, %v; want %v in UTC", last, err, at(2))
		}
		const n = 6
		many := make([]string, n)
		for i := range many {
			many[i] = a.NewWorkspace(t)
		}
		allSucceed(t, "advance", Parallel(n, func(i int) error {
			return a.Projection.Advance(ctx, many[i], "evt_x", at(100+i).In(time.FixedZone("UTC+2", 7200)), at(200))
		}))
		for i, w := range many {
			if last, err := a.Summary.LastEventAt(ctx, w); err != nil || !last.Equal(at(100+i)) {
				t.Fatalf("progress of workspace %d = %v, %v; want %v", i, last, err, at(100+i))
			}
		}
		if last, _ := a.Summary.LastEventAt(ctx, ws); !last.Equal(at(2)) {
			t.Fatalf("another workspace's advance moved this one to %v", last)
		}
	})

	// Last: Reset empties the whole store, the other cases' workspaces too.
	t.Run("Reset empties every workspace's figures, states and progress", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		for _, w := range []string{ws, other} {
			a.mustAddRevenue(t, w, analyticsDay, "eur", command.Revenue{Gross: 500, Orders: 1})
			a.mustAddActivity(t, w, analyticsDay, command.Activity{StudentsNew: 1, EnrollmentsCompleted: 1})
			if err := a.Projection.SaveEnrollment(ctx, w, "enr_1", command.EnrollmentState{}); err != nil {
				t.Fatal(err)
			}
			if err := a.Projection.Advance(ctx, w, "evt_1", at(0), at(1)); err != nil {
				t.Fatal(err)
			}
		}
		if err := a.Reset.Reset(ctx); err != nil {
			t.Fatalf("reset: %v", err)
		}
		for _, w := range []string{ws, other} {
			wantEmpty(t, "after reset", a.counts(t, w, analyticsDay-400, analyticsDay+400))
			if _, found, err := a.Projection.Enrollment(ctx, w, "enr_1"); err != nil || found {
				t.Fatalf("enrollment state after reset: %v, %v", found, err)
			}
			if last, err := a.Summary.LastEventAt(ctx, w); err != nil || !last.IsZero() {
				t.Fatalf("progress after reset = %v, %v", last, err)
			}
			rev, done, err := a.Daily.Daily(ctx, w, (analyticsDay - 1).Start(), (analyticsDay + 1).Start())
			if err != nil || len(rev) != 0 || len(done) != 0 {
				t.Fatalf("days after reset = %+v, %+v, %v", rev, done, err)
			}
		}
	})
}

// AnalyticsSummary is the contract of query.ReadModel: the figures of a window of UTC
// days [start, end), revenue by currency for the currencies sold or refunded in it.
func AnalyticsSummary(t *testing.T, open AnalyticsFactory) {
	a := open(t)
	ctx := context.Background()
	d := analyticsDay

	t.Run("a workspace without facts has zero counts, no revenue and no progress", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		wantEmpty(t, "new workspace", a.counts(t, ws, d-366, d+1))
		if last, err := a.Summary.LastEventAt(ctx, ws); err != nil || !last.IsZero() {
			t.Fatalf("progress = %v, %v; want the zero time", last, err)
		}
	})

	t.Run("the window is [start, end) of UTC days, whatever zone its instants are written in", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		for i, day := range []command.Day{d - 1, d, d + 1, d + 2} {
			a.mustAddActivity(t, ws, day, command.Activity{StudentsNew: int64(1) << i})
		}
		if got := a.counts(t, ws, d, d+2); got.NewStudents != 2+4 {
			t.Fatalf("students of [d, d+2) = %d; want days d and d+1 only (6)", got.NewStudents)
		}
		east := time.FixedZone("UTC+14", 14*3600)
		c, err := a.Summary.Counts(ctx, ws, d.Start().In(east), (d + 2).Start().In(east))
		if err != nil || c.NewStudents != 6 {
			t.Fatalf("the same window in UTC+14 = %d, %v; want 6", c.NewStudents, err)
		}
		if got := a.counts(t, ws, d+2, d+3); got.NewStudents != 8 {
			t.Fatalf("students of one day = %d; want 8", got.NewStudents)
		}
	})

	t.Run("revenue: by currency, only those sold or refunded in the window, net may be negative", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		a.mustAddRevenue(t, ws, d, "usd", command.Revenue{Refunded: 700, Refunds: 1})
		a.mustAddRevenue(t, ws, d+1, "usd", command.Revenue{Gross: 200, Orders: 1})
		a.mustAddRevenue(t, ws, d, "eur", command.Revenue{Gross: 3000, Orders: 2})
		a.mustAddRevenue(t, ws, d+5, "gbp", command.Revenue{Gross: 900, Orders: 1}) // after the window
		a.mustAddRevenue(t, other, d, "aud", command.Revenue{Gross: 100, Orders: 1})
		want := []query.Revenue{
			{Currency: "eur", Gross: 3000, Net: 3000, Orders: 2},
			{Currency: "usd", Gross: 200, Refunded: 700, Net: -500, Orders: 1, Refunds: 1},
		}
		if got := a.counts(t, ws, d, d+5); !reflect.DeepEqual(got.Revenue, want) {
			t.Fatalf("revenue\n got %+v\nwant %+v", got.Revenue, want)
		}
	})

	t.Run("enrollments, lessons and completionRate's cohort sum over the window", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		a.mustAddActivity(t, ws, d, command.Activity{EnrollmentsCreated: 3, CohortCompleted: 1, LessonsCompleted: 4})
		a.mustAddActivity(t, ws, d+1, command.Activity{EnrollmentsCreated: 1, EnrollmentsRevoked: 2, EnrollmentsCompleted: 2, CohortCompleted: 1})
		a.mustAddActivity(t, ws, d+1, command.Activity{EnrollmentsRevoked: -1})
		got := a.counts(t, ws, d, d+2)
		want := query.Counts{
			Enrollments: query.Enrollments{Created: 4, Revoked: 1, Completed: 2}, LessonsCompleted: 4, Cohort: 4, CohortCompleted: 2,
		}
		if len(got.Revenue) != 0 {
			t.Fatalf("revenue without sales: %+v", got.Revenue)
		}
		got.Revenue = nil
		mustMatch(t, "counts", want, got)
	})
}

// AnalyticsDaily is the contract of query.DailyReadModel: a window's days with revenue
// (net, by currency then day) and with completions (by day); other days are absent.
func AnalyticsDaily(t *testing.T, open AnalyticsFactory) {
	a := open(t)
	ctx := context.Background()
	d := analyticsDay

	t.Run("days with sales or refunds by currency then day, completions by day, one workspace", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		a.mustAddRevenue(t, ws, d+1, "usd", command.Revenue{Gross: 500, Orders: 1})
		a.mustAddRevenue(t, ws, d, "usd", command.Revenue{Gross: 1000, Orders: 1})
		a.mustAddRevenue(t, ws, d, "usd", command.Revenue{Refunded: 200, Refunds: 1})
		a.mustAddRevenue(t, ws, d+1, "eur", command.Revenue{Refunded: 300, Refunds: 1})
		a.mustAddRevenue(t, ws, d+3, "usd", command.Revenue{Gross: 50, Orders: 1}) // after the window
		a.mustAddRevenue(t, other, d, "usd", command.Revenue{Gross: 9, Orders: 1})
		a.mustAddActivity(t, ws, d-1, command.Activity{StudentsNew: 1}) // no completion: absent
		a.mustAddActivity(t, ws, d+1, command.Activity{EnrollmentsCompleted: 2})
		a.mustAddActivity(t, ws, d, command.Activity{EnrollmentsCompleted: 1, StudentsNew: 1})
		a.mustAddActivity(t, other, d, command.Activity{EnrollmentsCompleted: 5})
		rev, done, err := a.Daily.Daily(ctx, ws, (d - 1).Start(), (d + 3).Start())
		if err != nil {
			t.Fatalf("daily: %v", err)
		}
		wantRev := []query.DayRevenue{
			{Day: (d + 1).Start(), Currency: "eur", Net: -300},
			{Day: d.Start(), Currency: "usd", Net: 800},
			{Day: (d + 1).Start(), Currency: "usd", Net: 500},
		}
		wantDone := []query.DayCount{{Day: d.Start(), N: 1}, {Day: (d + 1).Start(), N: 2}}
		if !reflect.DeepEqual(rev, wantRev) || !reflect.DeepEqual(done, wantDone) {
			t.Fatalf("daily\n got %+v %+v\nwant %+v %+v", rev, done, wantRev, wantDone)
		}
	})

	t.Run("a window without activity answers no days", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		a.mustAddRevenue(t, ws, d+10, "usd", command.Revenue{Gross: 1, Orders: 1})
		rev, done, err := a.Daily.Daily(ctx, ws, d.Start(), (d + 10).Start())
		if err != nil || len(rev) != 0 || len(done) != 0 {
			t.Fatalf("empty window = %+v, %+v, %v", rev, done, err)
		}
	})
}
