package tests

import (
	"context"
	"net/http"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The sweeper forgets subjects whose windows ended before today, and only those.
func TestOldWindowsAreSwept(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var limiter *ratelimit.Limiter
		env := testenv.Start(t, dbURL, fx.Populate(&limiter))
		ws := env.CreateWorkspace(t, "Academy")
		_, active := env.CreateKey(t, ws, "read:courses")
		_, idle := env.CreateKey(t, ws, "read:courses")

		env.Clock.Set(at(10, 0, 0))
		env.API(active).Get(t, coursesPath).Expect(t, http.StatusOK)
		env.API(idle).Get(t, coursesPath).Expect(t, http.StatusOK)
		env.API("").Get(t, coursesPath).Expect(t, http.StatusUnauthorized)
		if n, err := limiter.Sweep(context.Background()); err != nil || n != 0 {
			t.Fatalf("sweep on the same day removed %d (%v), want 0", n, err)
		}

		env.Clock.Set(at(0, 0, 30).AddDate(0, 0, 1))
		env.API(active).Get(t, coursesPath).Expect(t, http.StatusOK)
		n, err := limiter.Sweep(context.Background())
		if err != nil || n != 2 {
			t.Fatalf("sweep the next day removed %d (%v), want 2 (the idle key and the client address)", n, err)
		}
		// The active key's window of today survives.
		r := env.API(active).Get(t, coursesPath).Expect(t, http.StatusOK)
		if got := rateOf(t, r); got.DailyRemaining != 998 {
			t.Fatalf("daily remaining %d after the sweep, want 998", got.DailyRemaining)
		}
	})
}
