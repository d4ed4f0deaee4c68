package tests

import (
	"context"
	"testing"

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
			t.Fatalf("claimed %d, %v; want 3", n, err)
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
