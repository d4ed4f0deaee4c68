package tests

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A dispatcher that is stopping gives back what it claims instead of sending it, so that
// another instance sends those deliveries at once rather than when the lease expires.
func TestStoppedDispatcherReleasesItsClaims(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env, _, _, rc := threeEventsToOneEndpoint(t, dbURL)

		stop := make(chan struct{})
		close(stop)
		env.Dispatcher.Run(stop) // returns at once: the dispatcher is stopping
		n, err := env.Dispatcher.Tick(context.Background())
		if err != nil || n != 3 {
			t.Fatalf("claimed %d, %v; want 3; the deliveries:\n%s", n, err, deliveryStates(t, env))
		}
		env.Dispatcher.Wait()
		if got := len(rc.Got()); got != 0 {
			t.Fatalf("a stopping dispatcher sent %d requests", got)
		}
		var leased int
		if err := env.DB.Reader.GetContext(context.Background(), &leased,
			`SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending' AND lease_token <> ''`); err != nil {
			t.Fatal(err)
		}
		if leased != 0 {
			t.Fatalf("%d deliveries still leased after the stop", leased)
		}
	})
}

// A dispatcher run again after it stopped sends again (a stop used to leave it releasing
// every claim for good).
func TestDispatcherRunAgainAfterAStopSends(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env, _, _, rc := threeEventsToOneEndpoint(t, dbURL)
		stopped := make(chan struct{})
		close(stopped)
		env.Dispatcher.Run(stopped) // returns at once

		stop, done := make(chan struct{}), make(chan struct{})
		go func() { defer close(done); env.Dispatcher.Run(stop) }()
		t.Cleanup(func() { close(stop); <-done })
		deadline := time.Now().Add(10 * time.Second)
		for len(rc.Got()) < 3 {
			if time.Now().After(deadline) {
				t.Fatalf("the dispatcher run again sent %d of 3 deliveries in 10 s; the deliveries:\n%s", len(rc.Got()), deliveryStates(t, env))
			}
			time.Sleep(10 * time.Millisecond)
		}
	})
}

// deliveryStates lists every delivery's claim state, to explain a claim that found fewer.
func deliveryStates(t *testing.T, env *testenv.WebhookEnv) string {
	t.Helper()
	var rows []struct {
		ID            string     `db:"id"`
		Status        string     `db:"status"`
		NextAttemptAt *time.Time `db:"next_attempt_at"`
		LeaseUntil    *time.Time `db:"lease_until"`
		LeaseToken    string     `db:"lease_token"`
	}
	if err := env.DB.Reader.SelectContext(context.Background(), &rows,
		`SELECT id, status, next_attempt_at, lease_until, lease_token FROM webhook_deliveries ORDER BY id`); err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "  %s %s next %v lease %v %q\n", r.ID, r.Status, r.NextAttemptAt, r.LeaseUntil, r.LeaseToken)
	}
	return fmt.Sprintf("clock %s\n%s", env.Clock.Now(), b.String())
}
