package tests

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestWebhookBackfillJoinsTheLiveStreamWithoutGapOrDuplicate: an endpoint created with
// backfillSince while events keep being published gets every event of its type once:
// those from before its creation (oldest first, ahead of the live ones), those published
// while it was being created and backfilled, and the live ones after.
func TestWebhookBackfillJoinsTheLiveStreamWithoutGapOrDuplicate(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		// One request at a time per endpoint: the receiver sees the claim order.
		d := testenv.StartWebhooksLimited(t, dbURL, nil, adapterwebhooks.Limits{Global: 64, PerEndpoint: 1})
		ws := d.CreateWorkspace(t, "Backfill")
		rc := testenv.NewReceiver(t)
		var before []string
		for i := range 25 {
			before = append(before, d.CreatePublishedCourse(t, ws, fmt.Sprintf("Before %d", i)))
		}
		d.Clock.Set(testenv.Epoch.Add(time.Minute)) // live events come a minute after the earlier ones

		// The backfill worker, as serve runs it, and a producer that keeps publishing.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				if _, err := d.App.Commands.RunBackfill.Run(ctx); err != nil && ctx.Err() == nil {
					t.Errorf("run backfill: %v", err)
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		var mu sync.Mutex
		var during []string
		stopProducing := make(chan struct{})
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stopProducing:
					return
				default:
				}
				id := d.CreatePublishedCourse(t, ws, fmt.Sprintf("During %d", i))
				mu.Lock()
				during = append(during, id)
				mu.Unlock()
			}
		}()
		time.Sleep(200 * time.Millisecond)
		var w struct{ ID string }
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks", map[string]any{
			"url": rc.URL, "events": []string{"course.published"}, "backfillSince": testenv.Epoch.Add(-time.Hour),
		}).Expect(t, http.StatusCreated).Decode(t, &w)
		waitBackfill(t, d, ws, w.ID)
		time.Sleep(300 * time.Millisecond) // live events after the backfill finished
		close(stopProducing)
		cancel()
		wg.Wait()
		all := append(append([]string(nil), before...), during...)
		if len(during) < 3 {
			t.Fatalf("only %d events published while the endpoint was created: the test proves nothing", len(during))
		}
		waitEndpointDeliveries(t, d.Env, w.ID, len(all))
		d.RunDue(t)

		got := rc.Got()
		seen := map[string]int{}
		var order []string
		for _, r := range got {
			for _, id := range all {
				if strings.Contains(string(r.Body), `"`+id+`"`) {
					seen[id]++
					order = append(order, id)
				}
			}
		}
		for _, id := range all {
			if seen[id] != 1 {
				t.Errorf("course %s delivered %d times, want once", id, seen[id])
			}
		}
		if len(got) != len(all) {
			t.Fatalf("%d requests for %d events", len(got), len(all))
		}
		if diff := cmp.Diff(before, order[:len(before)]); diff != "" {
			t.Fatalf("the earlier events do not come first, oldest first (-want +got):\n%s", diff)
		}
		var b struct {
			Status   string `json:"status"`
			Enqueued int    `json:"enqueued"`
		}
		d.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/webhooks/"+w.ID+"/backfill").Expect(t, http.StatusOK).Decode(t, &b)
		if b.Status != "done" || b.Enqueued < len(before) || b.Enqueued > len(all) {
			t.Fatalf("backfill %+v, want done with %d..%d deliveries", b, len(before), len(all))
		}

		// A backfill is an ordinary delivery: resendable.
		dl := d.WebhookDeliveries(t, ws, w.ID)
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/deliveries/"+dl[len(dl)-1].ID+"/resend", nil).Expect(t, http.StatusAccepted)
		d.RunDue(t)
		if n := len(rc.Got()); n != len(all)+1 {
			t.Fatalf("after a resend: %d requests, want %d", n, len(all)+1)
		}
	})
}

// TestWebhookBackfillLaterAndItsBounds: a backfill asked for later sends only what the
// endpoint does not have (never a second delivery of an event), and a start more than 30
// days back or in the future is refused.
func TestWebhookBackfillLaterAndItsBounds(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := testenv.StartWebhooks(t, dbURL, nil)
		ws := d.CreateWorkspace(t, "Later")
		rc := testenv.NewReceiver(t)
		first := d.CreatePublishedCourse(t, ws, "Before the endpoint")
		whk, _ := d.CreateWebhook(t, ws, rc.URL, "course.published")
		second := d.CreatePublishedCourse(t, ws, "After the endpoint")
		d.WaitDeliveries(t, 1)
		d.RunDue(t)
		path := "/internal/v1/workspaces/" + ws + "/webhooks/" + whk + "/backfill"
		for _, since := range []time.Time{testenv.Epoch.Add(-31 * 24 * time.Hour), testenv.Epoch.Add(time.Hour)} {
			r := d.Admin().Post(t, path, map[string]any{"since": since})
			if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "30 days") {
				t.Fatalf("since %s: %d %s, want 422 naming the 30 days", since, r.Status, r.Body)
			}
		}
		d.Admin().Post(t, path, map[string]any{"since": testenv.Epoch.Add(-24 * time.Hour)}).Expect(t, http.StatusAccepted)
		r := d.Admin().Post(t, path, map[string]any{"since": testenv.Epoch.Add(-24 * time.Hour)})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(string(r.Body), "running") {
			t.Fatalf("a second backfill while one runs: %d %s", r.Status, r.Body)
		}
		waitBackfill(t, d, ws, whk)
		d.RunDue(t)
		got := rc.Got()
		if len(got) != 2 || !strings.Contains(string(got[0].Body), second) || !strings.Contains(string(got[1].Body), first) {
			t.Fatalf("%d requests; want the live event, then the earlier one from the backfill, each once", len(got))
		}
	})
}

// waitBackfill runs backfill steps, as the worker does, until the endpoint's is done. On
// PostgreSQL a backfill ends once every transaction older than its stop has ended, in the
// whole cluster (the snapshot's xmin): other tests' transactions can hold it for a while.
func waitBackfill(t *testing.T, d *testenv.WebhookEnv, ws, whk string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := d.App.Commands.RunBackfill.Run(context.Background()); err != nil {
			t.Fatalf("run backfill: %v", err)
		}
		var b struct{ Status string }
		d.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/webhooks/"+whk+"/backfill").Expect(t, http.StatusOK).Decode(t, &b)
		if b.Status == "done" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("backfill of %s still %q after 60 s", whk, b.Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func waitEndpointDeliveries(t *testing.T, env *testenv.Env, whk string, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var got int
		if err := env.DB.Reader.GetContext(context.Background(), &got, env.DB.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE subscription_id = ?`), whk); err != nil {
			t.Fatal(err)
		}
		if got == n {
			return
		}
		if got > n || time.Now().After(deadline) {
			t.Fatalf("%d deliveries for %s, want %d", got, whk, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
