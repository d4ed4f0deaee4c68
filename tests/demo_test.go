package tests

import (
	"context"
	"net/http"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/ports/cli/demo"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestDemoSeedsOnceThroughTheApplication(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var s demo.Seeder
		var settings *sqlstore.Settings
		env := testenv.Start(t, dbURL, fx.Populate(&s.Workspaces, &s.Keys, &s.Courses, &s.Students, &s.Enrollments,
			&s.Orders, &s.LiveSessions, &s.Certificates, &settings))
		s.Marker, s.Now = settings, env.Clock.Now

		first, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !first.Seeded || again.Seeded || again.WorkspaceID != first.WorkspaceID || again.Key.Secret == first.Key.Secret {
			t.Fatalf("first %+v, again %+v: want one seeding and a new key each run", first.Seeded, again.Seeded)
		}
		if len(first.Key.Scopes) != 6 {
			t.Fatalf("demo key scopes %v", first.Key.Scopes)
		}

		api := env.API(first.Key.Secret)
		var courses courseList
		api.Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &courses)
		if len(courses.Data) != 3 {
			t.Fatalf("%d published demo courses, want 3", len(courses.Data))
		}
		var page struct{ Data []map[string]any }
		api.Get(t, "/api/v1/students?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 50 {
			t.Fatalf("%d demo students, want 50", len(page.Data))
		}
		api.Get(t, "/api/v1/orders?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 36 {
			t.Fatalf("%d demo orders, want 36", len(page.Data))
		}
		var summary struct {
			Revenue []struct{ Currency string }
		}
		env.WaitForConsumers(t) // the summary reads the projection
		api.Get(t, "/api/v1/analytics/summary").Expect(t, http.StatusOK).Decode(t, &summary)
		if len(summary.Revenue) != 2 {
			t.Fatalf("revenue rows %+v, want two currencies", summary.Revenue)
		}
		seen := map[events.Type]bool{}
		for _, ev := range env.OutboxEvents(t) {
			seen[ev.Type] = true
		}
		for _, typ := range events.PublicTypes {
			if !seen[typ] && typ != events.StudentUpdated && typ != events.StudentDeleted {
				t.Errorf("the demo never emits %s", typ)
			}
		}
	})
}
