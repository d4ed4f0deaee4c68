package tests

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"go.uber.org/fx"

	memanalytics "github.com/creatorapi/creatorapi/adapters/memory/analytics"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// behind is the event pipeline's answer while the projection lags.
type behind struct{}

func (behind) CaughtUp(context.Context, string) (bool, error) { return false, nil }

// The analytics use cases on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}): the projection consumer folds a sale, a refund, new students and
// a completed course into the twin, the summary and the days read them back per
// workspace, freshness is now once caught up and the last applied event's time while
// behind, and a rebuild (Reset, then the outbox again) gives the same figures; the
// analytics tables stay empty, which proves the swap.
func TestAnalyticsOnMemoryAdapters(t *testing.T) {
	var (
		app   analytics.Application
		rm    query.ReadModel
		daily query.DailyReadModel
		ops   *compose.Operations
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &rm, &daily, &ops))
	twin, ok := rm.(memanalytics.Summary)
	if !ok {
		t.Fatalf("query.ReadModel is %T; want the memory twin", rm)
	}
	ctx := context.Background()
	day10, day11 := time.Date(2026, 11, 10, 23, 59, 59, 0, time.UTC), time.Date(2026, 11, 11, 0, 0, 0, 0, time.UTC)
	env.Clock.Set(day10) // every event in time order: the rebuild guard finds no fact older than the outbox
	ws, other := env.CreateWorkspace(t, "Memory"), env.CreateWorkspace(t, "Other")
	course := env.CreatePublishedCourse(t, ws, "Watercolor") // two lessons
	student := env.CreateStudent(t, ws, "ada@example.com")
	order := env.PlaceOrder(t, ws, student, "usd", testenv.OrderItem{CourseID: course, Amount: 5000}) // enrolls
	env.Clock.Set(day11)
	env.CompleteCourse(t, ws, student, course)
	env.PostRefund(t, ws, order.ID, 1000).Expect(t, http.StatusOK)
	env.CreateStudent(t, other, "x@example.com")
	env.Clock.Set(testenv.Epoch)
	env.WaitForConsumers(t)

	window := query.GetSummary{WorkspaceID: ws, From: "2026-11-10", To: "2026-11-11"}
	want := query.Summary{
		Window:      query.Window{From: "2026-11-10", To: "2026-11-11"},
		Revenue:     []query.Revenue{{Currency: "usd", Gross: 5000, Refunded: 1000, Net: 4000, Orders: 1, Refunds: 1}},
		Students:    query.Students{New: 1},
		Enrollments: query.Enrollments{Created: 1, Completed: 1}, LessonsCompleted: 2, CompletionRate: 1,
		AsOf: testenv.Epoch,
	}
	got, err := app.Queries.GetSummary.Handle(ctx, window)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("summary\n got %+v, %v\nwant %+v", got, err, want)
	}
	days, err := query.Reads{Daily: daily, Clock: env.Clock}.GetDaily(ctx, window)
	wantRevenue := []query.DayRevenue{{Day: day11.AddDate(0, 0, -1), Currency: "usd", Net: 5000}, {Day: day11, Currency: "usd", Net: -1000}}
	if err != nil || !reflect.DeepEqual(days.Revenue, wantRevenue) || !reflect.DeepEqual(days.Completions, []query.DayCount{{Day: day11, N: 1}}) {
		t.Fatalf("days: %+v, %v", days, err)
	}
	if o, err := app.Queries.GetSummary.Handle(ctx, query.GetSummary{WorkspaceID: other, From: "2026-11-10", To: "2026-11-11"}); err != nil ||
		o.Students.New != 1 || len(o.Revenue) != 0 || o.Enrollments.Created != 0 {
		t.Fatalf("another workspace's window: %+v, %v", o, err)
	}

	// While the pipeline says the projection is behind, asOf is the workspace's last
	// applied event (its outbox time), or the zero time for a workspace without events.
	var last time.Time
	for _, ev := range env.OutboxEvents(t) {
		if ev.WorkspaceID == ws {
			last = ev.CreatedAt
		}
	}
	lagging := query.Reads{ReadModel: twin, Backlog: behind{}, Clock: env.Clock}
	if s, err := lagging.GetSummary(ctx, window); err != nil || !s.AsOf.Equal(last) || last.IsZero() {
		t.Fatalf("asOf while behind = %v, %v; want the last event's time %v", s.AsOf, err, last)
	}
	if s, err := lagging.GetSummary(ctx, query.GetSummary{WorkspaceID: "ws_without_events"}); err != nil || !s.AsOf.IsZero() {
		t.Fatalf("asOf of a workspace without events = %v, %v; want the zero time", s.AsOf, err)
	}

	// A rebuild resets the twin and replays the outbox into it: the same figures.
	if _, err := ops.RebuildAnalytics(ctx, false); err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	env.WaitForConsumers(t)
	if again, err := app.Queries.GetSummary.Handle(ctx, window); err != nil || !reflect.DeepEqual(again, want) {
		t.Fatalf("summary after the rebuild\n got %+v, %v\nwant %+v", again, err, want)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM analytics_revenue_daily) + (SELECT COUNT(*) FROM analytics_activity_daily)
		+ (SELECT COUNT(*) FROM analytics_enrollments) + (SELECT COUNT(*) FROM analytics_progress)`); err != nil || rows != 0 {
		t.Fatalf("analytics rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
