package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// fanOut runs the fan-out consumer directly, in a transaction as the router would.
func fanOut(t *testing.T, env *testenv.WebhookEnv, evs ...events.Envelope) {
	t.Helper()
	err := env.DB.WithinTx(context.Background(), func(ctx context.Context) error {
		for _, ev := range evs {
			if err := env.App.Commands.FanOut.Handle(ctx, ev); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("fan out: %v", err)
	}
}

// threeEventsToOneEndpoint starts the webhook service with one endpoint of
// course.published in a new workspace, a receiver behind it, and three such events fanned
// out (not yet sent); it returns the service, the workspace, the endpoint and the receiver.
func threeEventsToOneEndpoint(t *testing.T, dbURL string) (*testenv.WebhookEnv, string, string, *testenv.Receiver) {
	t.Helper()
	env := testenv.StartWebhooks(t, dbURL, nil)
	ws := env.CreateWorkspace(t, "Academy")
	rc := testenv.NewReceiver(t)
	whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
	fanOut(t, env, syntheticEvents(ws, 3)...)
	return env, ws, whk, rc
}

func syntheticEvents(ws string, n int) []events.Envelope {
	out := make([]events.Envelope, n)
	for i := range out {
		out[i] = events.Envelope{
			ID: fmt.Sprintf("evt_synthetic%05d", i), Type: events.CoursePublished, CreatedAt: testenv.Epoch, WorkspaceID: ws,
			// A whole course as course.published carries it: deliveries are checked against the OpenAPI document.
			Data: json.RawMessage(fmt.Sprintf(`{"id":"crs_%05d","livemode":true,"slug":"course-%d","title":"Course <%d> & more","description":"",`+
				`"status":"published","publishedAt":"2026-11-21T10:00:00Z","archivedAt":null,"createdAt":"2026-11-21T10:00:00Z",`+
				`"updatedAt":"2026-11-21T10:00:00Z","moduleCount":0,"lessonCount":0,"modules":[]}`, i, i, i)),
		}
	}
	return out
}

// concurrency tracks how many requests a receiver serves at once.
type concurrency struct{ now, max atomic.Int64 }

func (c *concurrency) enter() {
	n := c.now.Add(1)
	for m := c.max.Load(); n > m && !c.max.CompareAndSwap(m, n); m = c.max.Load() {
	}
}

// reply answers 200 after delay, counting in c and in every also.
func (c *concurrency) reply(delay time.Duration, also ...*concurrency) func(int, *http.Request) testenv.Reply {
	all := append([]*concurrency{c}, also...)
	return func(int, *http.Request) testenv.Reply {
		for _, x := range all {
			x.enter()
		}
		time.Sleep(delay)
		for _, x := range all {
			x.now.Add(-1)
		}
		return testenv.Reply{Status: http.StatusOK}
	}
}

func TestWebhookFanOutIsIdempotentAndSkipsInternalTypes(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		env.CreateWebhook(t, ws, rc.URL, "course.published")
		env.CreateWebhook(t, ws, rc.URL+"/second", "course.published")
		evs := syntheticEvents(ws, 5)
		internal := events.Envelope{ID: "evt_internal", Type: events.LessonCompleted, CreatedAt: testenv.Epoch, WorkspaceID: ws, Data: json.RawMessage(`{}`)}
		fanOut(t, env, append(evs, internal)...)
		fanOut(t, env, evs...) // a replay changes nothing
		var n int
		if err := env.DB.Reader.Get(&n, `SELECT COUNT(*) FROM webhook_deliveries`); err != nil {
			t.Fatal(err)
		}
		if n != 10 {
			t.Fatalf("%d deliveries, want 10 (5 events x 2 endpoints, once)", n)
		}
		env.RunDue(t)
		got := rc.Got()
		if len(got) != 10 {
			t.Fatalf("%d requests, want 10", len(got))
		}
		want, _ := json.Marshal(evs[0])
		found := false
		for _, r := range got {
			if string(r.Body) == string(want) {
				found = true
			}
		}
		if !found {
			t.Fatalf("no body equals the envelope's bytes %s", want)
		}
	})
}

func TestWebhookDispatcherRespectsConcurrencyLimits(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooksLimited(t, dbURL, nil, adapterwebhooks.Limits{Global: 5, PerEndpoint: 3})
		ws := env.CreateWorkspace(t, "Academy")
		a, b := testenv.NewReceiver(t), testenv.NewReceiver(t)
		var ca, cb, total concurrency
		a.SetReply(ca.reply(20*time.Millisecond, &total))
		b.SetReply(cb.reply(20*time.Millisecond, &total))
		env.CreateWebhook(t, ws, a.URL, "course.published")
		env.CreateWebhook(t, ws, b.URL, "course.published")
		fanOut(t, env, syntheticEvents(ws, 30)...)
		env.RunDue(t)
		if len(a.Got()) != 30 || len(b.Got()) != 30 {
			t.Fatalf("got %d and %d requests, want 30 each", len(a.Got()), len(b.Got()))
		}
		if ca.max.Load() > 3 || cb.max.Load() > 3 || total.max.Load() > 5 {
			t.Fatalf("peak concurrency %d and %d, %d in all: per-endpoint limit 3, global 5", ca.max.Load(), cb.max.Load(), total.max.Load())
		}
		if ca.max.Load() < 2 {
			t.Fatalf("peak concurrency %d: the dispatcher does not send in parallel", ca.max.Load())
		}
	})
}

// Two instances on one database claim the same due deliveries: each is sent once.
func TestWebhookTwoInstancesNeverSendADeliveryTwice(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		one := testenv.StartWebhooks(t, dbURL, nil)
		two := testenv.StartWebhooks(t, dbURL, nil)
		ws := one.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		var c concurrency
		rc.SetReply(c.reply(2 * time.Millisecond))
		one.CreateWebhook(t, ws, rc.URL, "course.published")
		one.CreateWebhook(t, ws, rc.URL+"/b", "course.published")
		fanOut(t, one, syntheticEvents(ws, 200)...)
		var wg sync.WaitGroup
		for _, env := range []*testenv.WebhookEnv{one, two, one, two} {
			wg.Add(1)
			go func() { defer wg.Done(); env.RunDue(t) }()
		}
		wg.Wait()
		got := rc.Got()
		seen := map[string]int{}
		for _, r := range got {
			seen[r.Header.Get("X-SVC-Delivery")]++
		}
		if len(got) != 400 || len(seen) != 400 {
			t.Fatalf("%d requests for %d distinct deliveries, want 400 each", len(got), len(seen))
		}
		var pending int
		if err := one.DB.Reader.Get(&pending, `SELECT COUNT(*) FROM webhook_deliveries WHERE status <> 'succeeded'`); err != nil || pending != 0 {
			t.Fatalf("%d deliveries not succeeded (%v)", pending, err)
		}
	})
}

// A delivery past retention takes its attempts with it even when they are younger than the
// cutoff (an instance's clock ahead of the one that recorded the delivery): SQLite by the
// foreign key's cascade, PostgreSQL, which has no such key, in the statement that deletes
// the deliveries. No attempt is left without its delivery.
func TestWebhookLogPruneTakesADeliverysAttemptsWithIt(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env, _, _, _ := threeEventsToOneEndpoint(t, dbURL)
		env.RunDue(t)
		late := testenv.Epoch.Add(31 * 24 * time.Hour)
		if _, err := env.DB.Writer.Exec(env.DB.Rebind(`UPDATE webhook_attempts SET attempted_at = ?`), late); err != nil {
			t.Fatal(err)
		}
		env.Clock.Set(testenv.Epoch.Add(30*24*time.Hour + time.Second))
		n, err := env.App.Commands.PruneLog.Handle(context.Background())
		if err != nil || n != 3 { // the 3 deliveries; their attempts went with them, uncounted
			t.Fatalf("pruned %d rows, %v; want 3 deliveries", n, err)
		}
		var attempts, deliveries int
		if err := env.DB.Reader.Get(&attempts, `SELECT COUNT(*) FROM webhook_attempts`); err != nil || attempts != 0 {
			t.Fatalf("%d attempts left after their deliveries were pruned (%v)", attempts, err)
		}
		if err := env.DB.Reader.Get(&deliveries, `SELECT COUNT(*) FROM webhook_deliveries`); err != nil || deliveries != 0 {
			t.Fatalf("%d deliveries left (%v)", deliveries, err)
		}
	})
}

func TestWebhookLogIsPrunedAfter30Days(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env, ws, whk, _ := threeEventsToOneEndpoint(t, dbURL)
		env.RunDue(t)
		env.Clock.Set(testenv.Epoch.Add(29 * 24 * time.Hour))
		fanOut(t, env, syntheticEvents(ws, 4)[3])
		env.RunDue(t)
		prune := func() int {
			n, err := env.App.Commands.PruneLog.Handle(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		if n := prune(); n != 0 {
			t.Fatalf("pruned %d rows before 30 days", n)
		}
		env.Clock.Set(testenv.Epoch.Add(30*24*time.Hour + time.Second))
		if n := prune(); n != 6 { // 3 attempts + 3 deliveries
			t.Fatalf("pruned %d rows at 30 days, want 6", n)
		}
		var hours int // the health rollup's hours go with the log (the last one stays)
		if err := env.DB.Reader.Get(&hours, env.DB.Rebind(`SELECT COUNT(*) FROM webhook_health_hourly WHERE hour < ?`), testenv.Epoch.Add(24*time.Hour)); err != nil || hours != 0 {
			t.Fatalf("%d health rows older than 30 days left (%v)", hours, err)
		}
		list := env.WebhookDeliveries(t, ws, whk)
		if len(list) != 1 || len(list[0].AttemptLog) != 1 {
			t.Fatalf("after pruning: %+v", list)
		}
	})
}
