package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

type operationalBody struct {
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

func operationalBodies(t *testing.T, rc *testenv.Receiver) []operationalBody {
	t.Helper()
	var out []operationalBody
	for _, r := range rc.Got() {
		var b operationalBody
		if err := json.Unmarshal(r.Body, &b); err != nil {
			t.Fatalf("body %s: %v", r.Body, err)
		}
		if r.Header.Get("X-SVC-Event") != b.Type {
			t.Fatalf("X-SVC-Event %q for a %s body", r.Header.Get("X-SVC-Event"), b.Type)
		}
		out = append(out, b)
	}
	return out
}

// Each operational event fires exactly once, goes to the endpoints subscribed to it and
// never to the endpoint it describes (subscribed too): webhook_delivery.exhausted once per
// delivery that failed for good, webhook_endpoint.failing once per failing streak after
// 24 hours, webhook_endpoint.disabled once when the rule disables it, with failingSince;
// the disable e-mail is still queued.
func TestWebhookOperationalEventsFireOnceAndNeverToTheEndpointTheyDescribe(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) {
			c.WebhookRetrySchedule = []time.Duration{time.Minute, 5 * time.Minute}
			c.WebhookDisableAfter = 72 * time.Hour
		})
		ws := env.CreateWorkspace(t, "Ops Academy")
		ops := []string{"webhook_endpoint.disabled", "webhook_endpoint.failing", "webhook_delivery.exhausted"}
		failing := testenv.NewReceiver(t)
		failing.Always(http.StatusServiceUnavailable)
		bad, _ := env.CreateWebhook(t, ws, failing.URL, append([]string{"course.published"}, ops...)...)
		alerts := testenv.NewReceiver(t)
		alertsID, _ := env.CreateWebhook(t, ws, alerts.URL, ops...)
		quiet := testenv.NewReceiver(t) // another workspace's endpoint: never hears of these
		ws2 := env.CreateWorkspace(t, "Quiet Academy")
		env.CreateWebhook(t, ws2, quiet.URL, ops...)

		// runCycle publishes one event and runs its three attempts (now, +1 min, +5 min).
		deliveries := 0
		runCycle := func(name string) {
			t.Helper()
			env.CreatePublishedCourse(t, ws, name)
			deliveries++
			env.WaitDeliveries(t, deliveries)
			for _, step := range []time.Duration{0, time.Minute, 4 * time.Minute} {
				env.Clock.Advance(step)
				env.RunDue(t)
				env.RunDue(t) // the operational events' deliveries, written by the previous run
			}
			deliveries = countDeliveries(t, env.Env)
		}
		count := func(typ string) (n int, last map[string]any) {
			for _, b := range operationalBodies(t, alerts) {
				if b.Type == typ {
					n, last = n+1, b.Data
				}
			}
			return n, last
		}

		start := env.Clock.Now()
		runCycle("Day 0") // fails three times: exhausted
		if n, d := count("webhook_delivery.exhausted"); n != 1 || d["webhookId"] != bad || d["status"] != "failed" ||
			d["eventType"] != "course.published" || d["attempts"] != 3.0 || d["lastStatus"] != 503.0 {
			t.Fatalf("after day 0: %d exhausted, last %v", n, d)
		}
		if n, _ := count("webhook_endpoint.failing"); n != 0 {
			t.Fatalf("failing announced before 24 hours")
		}

		env.Clock.Set(start.Add(24 * time.Hour))
		runCycle("Day 1") // 24 h of failures: failing, once, though three attempts qualify
		env.Clock.Set(start.Add(48 * time.Hour))
		runCycle("Day 2")
		n, d := count("webhook_endpoint.failing")
		if n != 1 || d["id"] != bad || d["failingSince"] != start.Format(time.RFC3339) || d["status"] != "enabled" {
			t.Fatalf("failing announced %d times, last %v", n, d)
		}
		if n, _ := count("webhook_endpoint.disabled"); n != 0 {
			t.Fatalf("disabled announced before the disable period")
		}

		env.Clock.Set(start.Add(72 * time.Hour))
		env.CreatePublishedCourse(t, ws, "Day 3") // its first attempt disables the endpoint
		env.WaitDeliveries(t, deliveries+1)
		env.RunDue(t)
		env.RunDue(t)
		n, d = count("webhook_endpoint.disabled")
		if n != 1 || d["id"] != bad || d["status"] != "disabled" || d["disabledReason"] != "failing" ||
			d["failingSince"] != start.Format(time.RFC3339) || d["disabledAt"] != start.Add(72*time.Hour).Format(time.RFC3339) {
			t.Fatalf("disabled announced %d times, last %v", n, d)
		}
		var notices int
		if err := env.DB.Reader.Get(&notices, env.DB.Rebind(`SELECT COUNT(*) FROM webhook_notices WHERE subscription_id = ?`), bad); err != nil || notices != 1 {
			t.Fatalf("%d disable notices (%v), want 1", notices, err)
		}

		// A new streak after enabling is announced again, once.
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/enable", ws, bad), nil).Expect(t, http.StatusOK)
		env.RunDue(t)
		env.RunDue(t)
		restart := env.Clock.Now()
		runCycle("Day 3, enabled") // the new streak starts here
		env.Clock.Set(restart.Add(25 * time.Hour))
		runCycle("Day 4")
		failingSince := map[string]int{}
		for _, b := range operationalBodies(t, alerts) {
			if b.Type == "webhook_endpoint.failing" {
				failingSince[b.Data["failingSince"].(string)]++
			}
		}
		if diff := cmp.Diff(map[string]int{start.Format(time.RFC3339): 1, restart.Format(time.RFC3339): 1}, failingSince); diff != "" {
			t.Fatalf("failing events per streak (-want +got):\n%s", diff)
		}

		// Exhausted: once per delivery that failed for good (day 3's was paused by the disable
		// and failed after enabling).
		exhausted := map[string]int{}
		for _, b := range operationalBodies(t, alerts) {
			if b.Type == "webhook_delivery.exhausted" {
				exhausted[b.Data["id"].(string)]++
			}
		}
		for id, n := range exhausted {
			if n != 1 {
				t.Fatalf("delivery %s announced exhausted %d times", id, n)
			}
		}
		var failed int
		if err := env.DB.Reader.Get(&failed, env.DB.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE subscription_id = ? AND status = 'failed'`), bad); err != nil {
			t.Fatal(err)
		}
		if len(exhausted) != failed || failed < 4 {
			t.Fatalf("%d deliveries announced exhausted, %d failed for good", len(exhausted), failed)
		}

		// Never to the endpoint described, nor to another workspace; the healthy endpoint's
		// own operational events would name it, and there are none.
		for _, b := range operationalBodies(t, failing) {
			if b.Type != "course.published" {
				t.Fatalf("the failing endpoint got %s about itself: %v", b.Type, b.Data)
			}
		}
		if got := len(quiet.Got()); got != 0 {
			t.Fatalf("another workspace's endpoint got %d operational events", got)
		}
		for _, b := range operationalBodies(t, alerts) {
			if b.Data["id"] == alertsID || b.Data["webhookId"] == alertsID {
				t.Fatalf("the alerts endpoint got an event about itself: %v", b)
			}
		}
		// Each catalogue example has the shape of the real event.
		for _, b := range operationalBodies(t, alerts) {
			e, ok := catalog.Find(b.Type)
			if !ok {
				t.Fatalf("%s is not in the catalogue", b.Type)
			}
			var example any
			if err := json.Unmarshal(e.Data, &example); err != nil {
				t.Fatal(err)
			}
			real := map[string]any(b.Data)
			if diff := shapeDiff("data", example, any(real)); diff != "" {
				t.Errorf("%s: the catalogue's example differs from the real event: %s", b.Type, diff)
			}
		}
	})
}

func countDeliveries(t *testing.T, env *testenv.Env) int {
	t.Helper()
	var n int
	if err := env.DB.Reader.Get(&n, `SELECT COUNT(*) FROM webhook_deliveries`); err != nil {
		t.Fatal(err)
	}
	return n
}
