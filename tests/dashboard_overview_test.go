package tests

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	keyquery "github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestDashboardOverviewChartsAndRequestCounts(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var m members.Application
		var usage *keyquery.UsageBuffer
		env := testenv.Start(t, dbURL, fx.Populate(&m, &usage))
		d := dashEnv{Env: env, Members: m}
		ws := d.CreateWorkspace(t, "Charts")

		// Day 1: a paid order in EUR and a completed course; day 2: one in USD.
		course := d.CreatePublishedCourse(t, ws, "Watercolor")
		student := d.CreateStudent(t, ws, "ada@example.com")
		d.PlaceOrder(t, ws, student, "eur", testenv.OrderItem{CourseID: course, Amount: 4900})
		d.CompleteCourse(t, ws, student, course)
		d.Clock.Advance(24 * time.Hour)
		other := d.CreatePublishedCourse(t, ws, "Oil")
		d.PlaceOrder(t, ws, student, "usd", testenv.OrderItem{CourseID: other, Amount: 1250})
		d.WaitForConsumers(t)

		// API requests: counted in memory, written by the flush, none per request.
		_, secret := d.CreateKey(t, ws, "read:courses")
		for i := 0; i < 3; i++ {
			d.API(secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		}
		var rows int
		if err := d.DB.Reader.Get(&rows, `SELECT COUNT(*) FROM api_key_requests_daily`); err != nil || rows != 0 {
			t.Fatalf("a request wrote to the database before the flush: %d rows, %v", rows, err)
		}
		if err := usage.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}
		d.API(secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		if err := usage.Flush(context.Background()); err != nil {
			t.Fatal(err)
		}

		p := d.signedIn(t, ws)
		page := body(p.Get(t, "/dashboard/w/"+ws+"/").Expect(t, http.StatusOK))
		day1 := testenv.Epoch.Format("2006-01-02")
		day2 := testenv.Epoch.Add(24 * time.Hour).Format("2006-01-02")
		for _, want := range []string{
			"Net revenue per day, EUR", "Net revenue per day, USD",
			"<title>" + day1 + ": 49.00 EUR</title>", "<title>" + day2 + ": 12.50 USD</title>",
			"Completions per day", "<title>" + day1 + ": 1</title>",
			"test key", "4 requests", "<title>" + day2 + ": 4</title>",
		} {
			if !strings.Contains(page, want) {
				t.Fatalf("overview lacks %q: %s", want, page)
			}
		}
		if n := strings.Count(page, `<rect class="bar"`); n != 30*4 {
			t.Fatalf("%d bars, want 30 days x 4 charts", n)
		}
		// A chosen window, with the API's rules.
		page = body(p.Get(t, "/dashboard/w/"+ws+"/?from="+day1+"&to="+day1).Expect(t, http.StatusOK))
		if strings.Contains(page, "Net revenue per day, USD") || !strings.Contains(page, "Net revenue per day, EUR") {
			t.Fatal("the window did not narrow the charts")
		}
		r := p.Get(t, "/dashboard/w/"+ws+"/?from=2026-01-01&to=2027-06-01")
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(body(r), "at most 366 days") {
			t.Fatalf("window rule: %d", r.Status)
		}
		p.Get(t, "/dashboard/w/"+ws+"/?from=yesterday").Expect(t, http.StatusUnprocessableEntity)
	})
}
