package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// createPacedWebhook creates an endpoint with pacing fields (rateLimit, ordered) in the
// operator API's JSON and returns its id.
func createPacedWebhook(t *testing.T, env *testenv.WebhookEnv, ws, url string, pacing map[string]any) string {
	t.Helper()
	body := map[string]any{"url": url, "events": []string{"course.published"}}
	for k, v := range pacing {
		body[k] = v
	}
	var w struct {
		ID        string
		RateLimit *int
		Ordered   bool
	}
	env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws), body).Expect(t, http.StatusCreated).Decode(t, &w)
	if rate, ok := pacing["rateLimit"]; ok && (w.RateLimit == nil || *w.RateLimit != rate) {
		t.Fatalf("created with rateLimit %v, shown %v", rate, w.RateLimit)
	}
	if ordered, ok := pacing["ordered"]; ok && w.Ordered != ordered {
		t.Fatalf("created with ordered %v, shown %v", ordered, w.Ordered)
	}
	return w.ID
}

// realTime moves the envs' manual clocks with the wall clock until the test ends, so that
// a rate limit's slots (taken at the clock's time, waited for in real time) come due.
func realTime(t *testing.T, envs ...*testenv.WebhookEnv) {
	t.Helper()
	start, stop := time.Now(), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			for _, env := range envs {
				env.Clock.Set(testenv.Epoch.Add(time.Since(start)))
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { close(stop); <-done })
}

// runUntil runs every env's dispatcher until rc got n requests or the deadline passes.
func runUntil(t *testing.T, rc *testenv.Receiver, n int, within time.Duration, envs ...*testenv.WebhookEnv) {
	t.Helper()
	deadline := time.Now().Add(within)
	var wg sync.WaitGroup
	for _, env := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for len(rc.Got()) < n && time.Now().Before(deadline) {
				if err := env.Dispatcher.RunDue(context.Background()); err != nil {
					t.Errorf("run due: %v", err)
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}()
	}
	wg.Wait()
}

// 40 events to an endpoint limited to 5 deliveries per second, sent by two instances at
// once: never more than 5 (+1) arrive within any second, every delivery arrives once, and
// waiting for the limit is not a failure (one attempt each).
func TestWebhookRateLimitHoldsAcrossInstances(t *testing.T) {
	testenv.Alone(t, "counts arrivals per second: a machine busy with other tests delays sends unevenly")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		one := testenv.StartWebhooks(t, dbURL, nil)
		two := testenv.StartWebhooks(t, dbURL, nil)
		ws := one.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		whk := createPacedWebhook(t, one, ws, rc.URL, map[string]any{"rateLimit": 5})
		fanOut(t, one, syntheticEvents(ws, 40)...)
		realTime(t, one, two)
		runUntil(t, rc, 40, 30*time.Second, one, two)
		got := rc.Got()
		seen := map[string]bool{}
		var at []time.Time
		for _, r := range got {
			seen[r.Header.Get("X-SVC-Delivery")] = true
			at = append(at, r.At)
		}
		if len(got) != 40 || len(seen) != 40 {
			t.Fatalf("%d requests for %d deliveries, want 40 each", len(got), len(seen))
		}
		sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
		worst := 0
		for i := range at {
			n := sort.Search(len(at), func(j int) bool { return !at[j].Before(at[i].Add(time.Second)) }) - i
			worst = max(worst, n)
		}
		if worst > 6 {
			t.Fatalf("%d requests within one second, limit 5 (+1)", worst)
		}
		if span := at[len(at)-1].Sub(at[0]); span < 6*time.Second {
			t.Fatalf("40 requests in %v: the limit of 5/s was not held", span)
		}
		t.Logf("40 deliveries in %v, at most %d within a second", at[len(at)-1].Sub(at[0]), worst)
		for _, d := range one.WebhookDeliveries(t, ws, whk) {
			if d.Status != "succeeded" || d.Attempts != 1 {
				t.Fatalf("delivery %s %s after %d attempts, want succeeded after 1 (waiting is not failing)", d.ID, d.Status, d.Attempts)
			}
		}
	})
}

// On an ordered endpoint whose first delivery fails twice, the next four wait for it and
// arrive after it, in event order, one at a time.
func TestWebhookOrderedEndpointWaitsForEarlierDeliveries(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		var c concurrency
		rc.SetReply(func(n int, r *http.Request) testenv.Reply {
			c.enter()
			defer c.now.Add(-1)
			time.Sleep(5 * time.Millisecond)
			if n <= 2 {
				return testenv.Reply{Status: http.StatusServiceUnavailable}
			}
			return testenv.Reply{Status: http.StatusOK}
		})
		createPacedWebhook(t, env, ws, rc.URL, map[string]any{"ordered": true})
		evs := syntheticEvents(ws, 5)
		fanOut(t, env, evs...)
		env.RunDue(t)
		if n := len(rc.Got()); n != 1 {
			t.Fatalf("%d requests at first, want 1: the later deliveries wait for the first", n)
		}
		env.Clock.Advance(time.Minute)
		env.RunDue(t)
		if n := len(rc.Got()); n != 2 {
			t.Fatalf("%d requests after the first retry, want 2", n)
		}
		env.Clock.Advance(5 * time.Minute)
		env.RunDue(t)
		var order []string
		for _, r := range rc.Got() {
			order = append(order, r.Header.Get("webhook-id"))
		}
		want := []string{evs[0].ID, evs[0].ID, evs[0].ID, evs[1].ID, evs[2].ID, evs[3].ID, evs[4].ID}
		if diff := cmp.Diff(want, order); diff != "" {
			t.Fatalf("arrival order (-want +got):\n%s", diff)
		}
		if c.max.Load() != 1 {
			t.Fatalf("%d requests in flight at once on an ordered endpoint, want 1", c.max.Load())
		}
	})
}

// An ordered endpoint's next delivery waits for the previous one's record, so the recorder
// takes its result at once instead of lingering for a batch: lingering (50 ms) held every
// ordered endpoint to about 20 deliveries a second. 40 in a row here take 2 s with the linger.
func TestWebhookOrderedEndpointIsNotHeldByTheRecorder(t *testing.T) {
	testenv.Serial(t, "times 40 deliveries made one after another (30 ms each at most): beside the parallel phase they took 1.5-2.0 s")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		createPacedWebhook(t, env, ws, rc.URL, map[string]any{"ordered": true})
		evs := syntheticEvents(ws, 40)
		fanOut(t, env, evs...)
		start := time.Now()
		env.RunDue(t)
		took := time.Since(start)
		if n := len(rc.Got()); n != len(evs) {
			t.Fatalf("%d deliveries arrived, want %d", n, len(evs))
		}
		if limit := time.Duration(len(evs)) * 30 * time.Millisecond; took > limit {
			t.Fatalf("%d ordered deliveries took %s, want under %s (the recorder lingered on them)", len(evs), took, limit)
		}
		t.Logf("%d ordered deliveries in %s", len(evs), took)
	})
}

// failThenRecover sends 3 events to a receiver that is down, so that each waits for its
// retry a minute later, then brings the receiver back up.
func failThenRecover(t *testing.T, env *testenv.WebhookEnv, ws string, rc *testenv.Receiver, whk string) {
	t.Helper()
	rc.Always(http.StatusServiceUnavailable)
	fanOut(t, env, syntheticEvents(ws, 3)...)
	env.RunDue(t)
	for _, d := range env.WebhookDeliveries(t, ws, whk) {
		if d.Status != "pending" || d.Attempts != 1 {
			t.Fatalf("delivery %s %s after %d attempts, want pending after 1", d.ID, d.Status, d.Attempts)
		}
	}
	rc.Always(http.StatusOK)
	env.Clock.Advance(10 * time.Second) // the retries are due at +1m
}

func allSucceeded(t *testing.T, env *testenv.WebhookEnv, ws, whk string, n int) {
	t.Helper()
	list := env.WebhookDeliveries(t, ws, whk)
	ok := 0
	for _, d := range list {
		if d.Status == "succeeded" {
			ok++
		}
	}
	if len(list) != n || ok != n {
		t.Fatalf("%d of %d deliveries succeeded, want %d", ok, len(list), n)
	}
}

// A receiver that was down gets its backlog at its first success, not at the next
// scheduled retry: the success brings the waiting retries forward.
func TestWebhookReceiverBackGetsItsBacklogAtItsFirstSuccess(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		failThenRecover(t, env, ws, rc, whk)
		later := syntheticEvents(ws, 4)[3] // a new event, 10 s later: the receiver answers
		fanOut(t, env, later)
		env.RunDue(t) // the clock stays at +10 s: the retries were due at +1m
		allSucceeded(t, env, ws, whk, 4)
	})
}

// "Send waiting deliveries now" (operator call, dashboard button): the waiting retries go
// at once, refused while the endpoint is disabled.
func TestWebhookSendWaitingNowQueuesTheBacklog(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		failThenRecover(t, env, ws, rc, whk)
		path := fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/send-waiting", ws, whk)
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/disable", ws, whk), nil).Expect(t, http.StatusOK)
		env.Admin().Post(t, path, nil).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/enable", ws, whk), nil).Expect(t, http.StatusOK)
		var q struct{ Queued int }
		env.Admin().Post(t, path, nil).Expect(t, http.StatusAccepted).Decode(t, &q)
		if q.Queued != 3 {
			t.Fatalf("queued %d, want 3", q.Queued)
		}
		env.RunDue(t)
		allSucceeded(t, env, ws, whk, 3)
		env.Admin().Post(t, path, nil).Expect(t, http.StatusAccepted).Decode(t, &q)
		if q.Queued != 0 {
			t.Fatalf("queued %d with nothing waiting, want 0", q.Queued)
		}
	})
}

// A receiver's 429 with Retry-After pauses the whole endpoint for that long: a delivery
// written meanwhile waits too, then both go.
func TestWebhook429RetryAfterPausesTheEndpoint(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		rc.SetReply(func(n int, _ *http.Request) testenv.Reply {
			if n == 1 {
				return testenv.Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After": "120"}}
			}
			return testenv.Reply{Status: http.StatusOK}
		})
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		evs := syntheticEvents(ws, 2)
		fanOut(t, env, evs[0])
		env.RunDue(t)
		var list []struct {
			ID          string
			PausedUntil *time.Time
		}
		var page struct{ Data json.RawMessage }
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws)).Expect(t, http.StatusOK).Decode(t, &page)
		if err := json.Unmarshal(page.Data, &list); err != nil || len(list) != 1 || list[0].PausedUntil == nil ||
			!list[0].PausedUntil.Equal(testenv.Epoch.Add(120*time.Second)) {
			t.Fatalf("endpoint after a 429 with Retry-After 120: %s (%v), want pausedUntil = +120 s", page.Data, err)
		}
		env.Clock.Advance(time.Minute)
		fanOut(t, env, evs[1])
		env.RunDue(t)
		if n := len(rc.Got()); n != 1 {
			t.Fatalf("%d requests during the pause, want 1 (the 429)", n)
		}
		env.Clock.Advance(61 * time.Second)
		env.RunDue(t)
		allSucceeded(t, env, ws, whk, 2)
		if n := len(rc.Got()); n != 3 {
			t.Fatalf("%d requests, want 3", n)
		}
	})
}

// PATCH changes pacing alone; a bad rate limit is refused; null removes it.
func TestWebhookPacingIsSetAndClearedByTheOperatorAPI(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		whk, _ := env.CreateWebhook(t, ws, "https://example.com/hook", "course.published")
		path := fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s", ws, whk)
		for _, bad := range []string{`{"rateLimit": 0}`, `{"rateLimit": 1001}`, `{"rateLimit": "5"}`} {
			var body map[string]any
			_ = json.Unmarshal([]byte(bad), &body)
			env.Admin().Do(t, http.MethodPatch, path, body).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		}
		type shown struct {
			URL       string
			Events    []string
			RateLimit *int
			Ordered   bool
		}
		var got shown
		env.Admin().Do(t, http.MethodPatch, path, map[string]any{"rateLimit": 20, "ordered": true}).Expect(t, http.StatusOK).Decode(t, &got)
		twenty := 20
		want := shown{URL: "https://example.com/hook", Events: []string{"course.published"}, RateLimit: &twenty, Ordered: true}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after PATCH (-want +got):\n%s", diff)
		}
		env.Admin().Do(t, http.MethodPatch, path, map[string]any{"rateLimit": nil}).Expect(t, http.StatusOK).Decode(t, &got)
		want.RateLimit = nil
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("after clearing the limit (-want +got):\n%s", diff)
		}
		if !strings.Contains(string(env.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/webhooks").Body), `"ordered":true`) {
			t.Fatal("the list does not show ordered")
		}
	})
}

// The endpoint page's "Pace and order" form sets the pacing, and its "Send waiting
// deliveries now" button queues the waiting retries, which then go at once.
func TestDashboardWebhookPacingFormAndSendWaitingButton(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Hooks")
		p := d.dash.signedIn(t, ws)
		rc := testenv.NewReceiver(t)
		whk, _ := addEndpoint(t, p, ws, rc.URL, "course.published")
		base := "/dashboard/w/" + ws + "/webhooks/" + whk
		page := body(p.Get(t, base).Expect(t, http.StatusOK))
		for _, want := range []string{`name="rate_limit"`, `name="ordered"`, `Send waiting deliveries now`} {
			if !strings.Contains(page, want) {
				t.Fatalf("endpoint page lacks %s", want)
			}
		}
		r := p.Post(t, base+"/pacing", url.Values{"rate_limit": {"abc"}})
		r.Expect(t, http.StatusUnprocessableEntity)
		p.Post(t, base+"/pacing", url.Values{"rate_limit": {"7"}, "ordered": {"true"}}).Expect(t, http.StatusSeeOther)
		page = body(p.Get(t, base).Expect(t, http.StatusOK))
		if !strings.Contains(page, `value="7"`) || !strings.Contains(page, `value="true" checked`) {
			t.Fatal("the form does not show the saved rate limit and order")
		}
		p.Post(t, base+"/pacing", url.Values{"rate_limit": {""}}).Expect(t, http.StatusSeeOther) // back to none

		failThenRecover(t, d.WebhookEnv, ws, rc, whk)
		r = p.Post(t, base+"/send-waiting", nil)
		if r.Status != http.StatusSeeOther || !strings.HasSuffix(r.Header.Get("Location"), "queued=3") {
			t.Fatalf("send waiting: %d %s", r.Status, r.Header.Get("Location"))
		}
		if page := body(p.Get(t, r.Header.Get("Location")).Expect(t, http.StatusOK)); !strings.Contains(page, "3 waiting deliveries queued") {
			t.Fatal("no notice of the queued deliveries")
		}
		d.RunDue(t)
		allSucceeded(t, d.WebhookEnv, ws, whk, 3)
	})
}
