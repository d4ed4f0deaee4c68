package tests

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"go.uber.org/fx"

	memwebhooks "github.com/creatorapi/creatorapi/adapters/memory/webhooks"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The webhook use cases on the in-memory adapters (testenv.MemoryWebhooks, one line): an
// endpoint is created, events fan out once (a replay changes nothing), the dispatcher
// sends them signed, records failures and their attempts, a recovery sends them again,
// a disabled endpoint gets nothing, another workspace sees nothing, and pruning empties
// the log after the retention; the webhook tables stay empty, which proves the swap.
func TestWebhookCommandsOnMemoryAdapters(t *testing.T) {
	var repo domainwebhooks.Repository
	env := testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), nil, testenv.MemoryWebhooks(memwebhooks.New()), fx.Populate(&repo))
	if _, ok := repo.(memwebhooks.Subscriptions); !ok {
		t.Fatalf("webhooks.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws, other := env.CreateWorkspace(t, "Memory"), env.CreateWorkspace(t, "Other")
	rc := testenv.NewReceiver(t)
	rc.Always(http.StatusGone) // fails without retry
	whk, secret := env.CreateWebhook(t, ws, rc.URL, "course.published")
	evs := syntheticEvents(ws, 3)
	fanOut(t, env, evs...)
	fanOut(t, env, evs...) // a replay changes nothing
	if list := env.WebhookDeliveries(t, ws, whk); len(list) != 3 {
		t.Fatalf("%d deliveries after a replayed fan-out, want 3", len(list))
	}

	env.RunDue(t)
	got := rc.Got()
	if len(got) != 3 {
		t.Fatalf("%d requests, want 3", len(got))
	}
	for _, r := range got {
		if _, ok := testenv.VerifySVC(r, secret); !ok {
			t.Fatal("signature does not verify")
		}
	}
	for _, d := range env.WebhookDeliveries(t, ws, whk) {
		if d.Status != "failed" || d.Attempts != 1 || len(d.AttemptLog) != 1 || d.AttemptLog[0].Outcome != "failed" {
			t.Fatalf("after a 410: %+v", d)
		}
	}

	rc.Always(http.StatusOK)
	admin := env.Admin()
	var rec struct{ Recovered int }
	admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/recover", ws, whk), map[string]any{"since": testenv.Epoch.Add(-time.Hour)}).
		Expect(t, http.StatusAccepted).Decode(t, &rec)
	if rec.Recovered != 3 {
		t.Fatalf("recovered %d, want 3", rec.Recovered)
	}
	env.RunDue(t)
	for _, d := range env.WebhookDeliveries(t, ws, whk) {
		if d.Status != "succeeded" || d.Attempts != 2 || len(d.AttemptLog) != 2 {
			t.Fatalf("after recovery: %+v", d)
		}
	}
	if len(rc.Got()) != 6 {
		t.Fatalf("%d requests after recovery, want 6", len(rc.Got()))
	}
	admin.Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/deliveries", other, whk)).ExpectError(t, http.StatusNotFound, "not_found")

	admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/disable", ws, whk), nil).Expect(t, http.StatusOK)
	fanOut(t, env, syntheticEvents(ws, 5)[3:]...)
	if list := env.WebhookDeliveries(t, ws, whk); len(list) != 3 {
		t.Fatalf("%d deliveries after fanning out to a disabled endpoint, want 3", len(list))
	}

	env.Clock.Advance(31 * 24 * time.Hour)
	if n, err := env.App.Commands.PruneLog.Handle(ctx); err != nil || n != 9 {
		t.Fatalf("prune: %d, %v; want 9 rows (6 attempts, 3 deliveries)", n, err)
	}
	if list := env.WebhookDeliveries(t, ws, whk); len(list) != 0 {
		t.Fatalf("%d deliveries after pruning", len(list))
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM webhook_subscriptions) + (SELECT COUNT(*) FROM webhook_deliveries)
		+ (SELECT COUNT(*) FROM webhook_attempts) + (SELECT COUNT(*) FROM webhook_notices)`); err != nil || rows != 0 {
		t.Fatalf("webhook rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
