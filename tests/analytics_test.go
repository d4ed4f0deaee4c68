package tests

import (
	"fmt"
	"net/http"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

type summaryJSON struct {
	Window struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"window"`
	Revenue  []revenueJSON `json:"revenue"`
	Students struct {
		New int64 `json:"new"`
	} `json:"students"`
	Enrollments struct {
		Created   int64 `json:"created"`
		Revoked   int64 `json:"revoked"`
		Completed int64 `json:"completed"`
	} `json:"enrollments"`
	LessonsCompleted int64   `json:"lessonsCompleted"`
	CompletionRate   float64 `json:"completionRate"`
	AsOf             string  `json:"asOf"`
}

type revenueJSON struct {
	Currency string `json:"currency"`
	Gross    int64  `json:"gross"`
	Refunded int64  `json:"refunded"`
	Net      int64  `json:"net"`
	Orders   int64  `json:"orders"`
	Refunds  int64  `json:"refunds"`
}

func TestAnalyticsSummaryMatchesAHandComputation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		other := env.CreateWorkspace(t, "Other")
		_, key := env.CreateKey(t, ws, "read:analytics")
		_, otherKey := env.CreateKey(t, other, "read:analytics")
		c1 := env.CreatePublishedCourse(t, ws, "Watercolor Basics") // two lessons
		c2 := env.CreatePublishedCourse(t, ws, "Ink Drawing")
		at := func(day, hour, min, sec int) { env.Clock.Set(time.Date(2026, 11, day, hour, min, sec, 0, time.UTC)) }

		// Before the window (Nov 5 and 9).
		at(5, 10, 0, 0)
		s0 := env.CreateStudent(t, ws, "s0@example.com")
		o0 := env.PlaceOrder(t, ws, s0, "usd", testenv.OrderItem{CourseID: c1, Amount: 1000})
		at(9, 23, 59, 59)
		env.CompleteCourse(t, ws, s0, c1)
		// Inside the window, 2026-11-10 .. 2026-11-20.
		at(10, 0, 0, 0)
		s1 := env.CreateStudent(t, ws, "s1@example.com")
		env.PlaceOrder(t, ws, s1, "usd", testenv.OrderItem{CourseID: c1, Amount: 5000})
		at(12, 8, 0, 0)
		o2 := env.PlaceOrder(t, ws, s1, "eur", testenv.OrderItem{CourseID: c2, Amount: 3000})
		env.PostRefund(t, ws, o0.ID, 400).Expect(t, http.StatusOK) // a refund in the window of an older order
		at(15, 12, 0, 0)
		env.CompleteCourse(t, ws, s1, c1)
		at(18, 9, 30, 0)
		env.PostRefund(t, ws, o2.ID, 0).Expect(t, http.StatusOK) // full: revokes s1's enrollment in c2
		env.Clock.Set(time.Date(2026, 11, 20, 23, 59, 59, 999999000, time.UTC))
		s2 := env.CreateStudent(t, ws, "s2@example.com")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/enrollments", ws), map[string]string{"studentId": s2, "courseId": c1}).
			Expect(t, http.StatusCreated)
		// After the window (Nov 21).
		at(21, 0, 0, 0)
		env.CreateStudent(t, ws, "s3@example.com")
		env.PlaceOrder(t, ws, s0, "usd", testenv.OrderItem{CourseID: c2, Amount: 7000})
		// Another workspace's activity never counts.
		otherCourse := env.CreatePublishedCourse(t, other, "Other course")
		env.PlaceOrder(t, other, env.CreateStudent(t, other, "x@example.com"), "usd", testenv.OrderItem{CourseID: otherCourse, Amount: 99})
		env.Clock.Set(testenv.Epoch)
		env.WaitForConsumers(t) // the summary reads the projection

		get := func(query string) summaryJSON {
			t.Helper()
			var s summaryJSON
			env.API(key).Get(t, "/api/v1/analytics/summary"+query).Expect(t, http.StatusOK).Decode(t, &s)
			return s
		}

		s := get("?from=2026-11-10&to=2026-11-20")
		want := summaryJSON{AsOf: epochText, LessonsCompleted: 2, CompletionRate: 0.3333}
		want.Window.From, want.Window.To = "2026-11-10", "2026-11-20"
		want.Revenue = []revenueJSON{
			{Currency: "eur", Gross: 3000, Refunded: 3000, Net: 0, Orders: 1, Refunds: 1},
			{Currency: "usd", Gross: 5000, Refunded: 400, Net: 4600, Orders: 1, Refunds: 1},
		}
		want.Students.New = 2                                       // s1, s2
		want.Enrollments.Created = 3                                // s1/c1, s1/c2, s2/c1
		want.Enrollments.Revoked, want.Enrollments.Completed = 1, 1 // s1/c2 refunded, s1/c1 completed
		if !reflect.DeepEqual(s, want) {
			t.Fatalf("summary\n got %+v\nwant %+v", s, want)
		}

		// Default window: the 30 days ending today (2026-10-23 .. 2026-11-21), everything above.
		d := get("")
		want.Window.From, want.Window.To = "2026-10-23", "2026-11-21"
		want.Revenue[1] = revenueJSON{Currency: "usd", Gross: 13000, Refunded: 400, Net: 12600, Orders: 3, Refunds: 1}
		want.Students.New, want.LessonsCompleted, want.CompletionRate = 4, 4, 0.4
		want.Enrollments.Created, want.Enrollments.Completed = 5, 2
		if diff := cmp.Diff(want, d); diff != "" {
			t.Fatalf("default summary (-want +got):\n%s", diff)
		}

		// Only one bound: to defaults to today, from to 29 days before to.
		toOnly := get("?to=2026-11-09").Window
		if diff := cmp.Diff([]string{"2026-10-11", "2026-11-09"}, []string{toOnly.From, toOnly.To}); diff != "" {
			t.Fatalf("window with only to: from, to (-want +got):\n%s", diff)
		}
		one := get("?from=2026-11-21")
		if one.Window.From != "2026-11-21" || one.Window.To != "2026-11-21" || one.Students.New != 1 || len(one.Revenue) != 1 || one.Revenue[0].Gross != 7000 {
			t.Fatalf("today only %+v", one)
		}

		// Exactly the documented fields.
		raw := env.API(key).Get(t, "/api/v1/analytics/summary").JSON(t)
		var keys []string
		for k := range raw {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, []string{"asOf", "completionRate", "enrollments", "lessonsCompleted", "revenue", "students", "window"}) {
			t.Fatalf("summary fields %v", keys)
		}

		// Another workspace sees its own figures only; no revenue is an empty list, rate 0.
		var o summaryJSON
		env.API(otherKey).Get(t, "/api/v1/analytics/summary?from=2026-11-01&to=2026-11-20").Expect(t, http.StatusOK).Decode(t, &o)
		if o.Revenue == nil || len(o.Revenue) != 0 || o.Students.New != 0 || o.Enrollments.Created != 0 || o.CompletionRate != 0 {
			t.Fatalf("other workspace %+v", o)
		}
	})
}

func TestAnalyticsWindowValidation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:analytics")
		api := env.API(key)
		for _, c := range []struct{ query, param string }{
			{"?from=2026-11-21&to=2026-11-20", "from"},
			{"?from=2026-11-22", "from"},             // after today, the default to
			{"?from=2025-01-01&to=2026-01-02", "to"}, // 367 days
			{"?from=2026-1-1", "from"},
			{"?from=2026-11-21T00:00:00Z", "from"},
			{"?to=2026-02-30", "to"},
			{"?to=tomorrow", "to"},
			{"?from=", "from"},
			{"?to=", "to"},
			{"?window=7d", "window"},
			{"?limit=10", "limit"},
		} {
			mustNameParam(t, api.Get(t, "/api/v1/analytics/summary"+c.query), c.param)
		}
		var s summaryJSON
		api.Get(t, "/api/v1/analytics/summary?from=2025-01-02&to=2026-01-02").Expect(t, http.StatusOK).Decode(t, &s) // 366 days
		if s.Window.From != "2025-01-02" || s.Window.To != "2026-01-02" || s.Revenue == nil {
			t.Fatalf("366-day window %+v", s)
		}
		_, noScope := env.CreateKey(t, ws, "read:orders")
		env.API(noScope).Get(t, "/api/v1/analytics/summary").ExpectError(t, http.StatusForbidden, "forbidden")
	})
}
