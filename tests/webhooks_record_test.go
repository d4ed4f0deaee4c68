package tests

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/webhooks/command"
	domain "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Recording drives the commands by hand: claim, then record results as the dispatcher
// would, including the rare cases (lease lost, resend in flight, a result twice).

func claim(t *testing.T, env *testenv.WebhookEnv, n int) []domain.Lease {
	t.Helper()
	leases, err := env.App.Commands.ClaimDue.Handle(context.Background(), n, domain.Room{PerEndpoint: n})
	if err != nil {
		t.Fatalf("claim: %v", err)
	}
	return leases
}

func record(env *testenv.WebhookEnv, status int, ls ...domain.Lease) []command.Recorded {
	cmds := make([]command.RecordAttempt, len(ls))
	for i, l := range ls {
		cmds[i] = command.RecordAttempt{Lease: l, At: env.Clock.Now(), Result: domain.Result{StatusCode: status}}
	}
	return env.App.Commands.RecordAttempt.Handle(context.Background(), cmds...)
}

func count(t *testing.T, env *testenv.WebhookEnv, query string, args ...any) int {
	t.Helper()
	var n int
	if err := env.DB.Reader.Get(&n, env.DB.Reader.Rebind(query), args...); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestWebhookRecordingIsOncePerLease(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		env.CreateWebhook(t, ws, testenv.NewReceiver(t).URL, "course.published")
		fanOut(t, env, syntheticEvents(ws, 3)...)
		ls := claim(t, env, 10)
		if len(ls) != 3 || len(claim(t, env, 10)) != 0 {
			t.Fatalf("claimed %d, want 3 and then none", len(ls))
		}
		// The same result twice, in one batch and again later: recorded once.
		got := record(env, http.StatusOK, ls[0], ls[0])
		if got[0].Err != nil || !errors.Is(got[1].Err, command.ErrLeaseLost) {
			t.Fatalf("twice in a batch: %+v", got)
		}
		if got := record(env, http.StatusOK, ls[0]); !errors.Is(got[0].Err, command.ErrLeaseLost) {
			t.Fatalf("again: %+v", got)
		}
		// A lease that ran out and was taken over: only the new holder records.
		env.Clock.Advance(31 * time.Second)
		again := claim(t, env, 10)
		if len(again) != 2 {
			t.Fatalf("claimed %d expired leases, want 2", len(again))
		}
		got = record(env, http.StatusOK, ls[1], again[0], again[1], ls[2])
		if !errors.Is(got[0].Err, command.ErrLeaseLost) || got[1].Err != nil || got[2].Err != nil || !errors.Is(got[3].Err, command.ErrLeaseLost) {
			t.Fatalf("after take-over: %+v", got)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM webhook_attempts`); n != 3 {
			t.Fatalf("%d attempts logged, want 3", n)
		}
		if n := count(t, env, `SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'succeeded' AND attempts = 1 AND lease_token = ''`); n != 3 {
			t.Fatalf("%d deliveries succeeded after one attempt, want 3", n)
		}
	})
}

// A resend while an attempt is in flight starts a new cycle; the attempt then counts in it.
func TestWebhookResendInFlightRestartsTheCycle(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		env.CreateWebhook(t, ws, testenv.NewReceiver(t).URL, "course.published")
		fanOut(t, env, syntheticEvents(ws, 1)...)
		if got := record(env, http.StatusServiceUnavailable, claim(t, env, 1)...); got[0].Outcome != domain.Retry {
			t.Fatalf("first attempt: %+v", got)
		}
		env.Clock.Advance(time.Minute)
		ls := claim(t, env, 1)
		if len(ls) != 1 || ls[0].Delivery.CycleAttempts != 1 {
			t.Fatalf("second claim: %+v", ls)
		}
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/deliveries/%s/resend", ws, ls[0].Delivery.ID), nil).
			Expect(t, http.StatusAccepted)
		if got := record(env, http.StatusServiceUnavailable, ls...); got[0].Err != nil || got[0].Outcome != domain.Retry {
			t.Fatalf("attempt after resend: %+v", got)
		}
		// The new cycle's first failure: cycle 1, failed now, next attempt a minute later.
		now := env.Clock.Now()
		if n := count(t, env, `SELECT COUNT(*) FROM webhook_deliveries WHERE attempts = 2 AND cycle_attempts = 1
			AND cycle_failed_at = ? AND next_attempt_at = ?`, now, now.Add(time.Minute)); n != 1 {
			t.Fatal("the attempt was not counted in the resend's new cycle")
		}
	})
}

// Within one batch, an endpoint's attempts apply in order to its failing streak.
func TestWebhookBatchAppliesTheStreakInOrder(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		env.CreateWebhook(t, ws, testenv.NewReceiver(t).URL, "course.published")
		fanOut(t, env, syntheticEvents(ws, 4)...)
		ls := claim(t, env, 4)
		at := env.Clock.Now()
		batch := func(statuses ...int) {
			cmds := make([]command.RecordAttempt, len(statuses))
			for i, s := range statuses {
				cmds[i] = command.RecordAttempt{Lease: ls[0], At: at, Result: domain.Result{StatusCode: s}}
				ls = ls[1:]
			}
			for _, r := range env.App.Commands.RecordAttempt.Handle(context.Background(), cmds...) {
				if r.Err != nil {
					t.Fatal(r.Err)
				}
			}
		}
		failing := func() int {
			return count(t, env, `SELECT COUNT(*) FROM webhook_subscriptions WHERE failing_since IS NOT NULL`)
		}
		if batch(http.StatusServiceUnavailable, http.StatusOK); failing() != 0 {
			t.Fatal("a success after a failure in one batch must end the streak")
		}
		if batch(http.StatusOK, http.StatusServiceUnavailable); failing() != 1 {
			t.Fatal("a failure after a success in one batch must start a streak")
		}
	})
}
