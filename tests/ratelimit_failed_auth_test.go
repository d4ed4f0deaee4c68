package tests

import (
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Failed authentications are limited per client address. Once the allowance is used,
// the client is refused before its key is looked at, so no answer tells a right guess
// from a wrong one.
func TestFailedAuthenticationIsLimitedPerClient(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		env.Clock.Set(at(10, 0, 30))
		reset, day := unix(at(10, 1, 0)), unix(at(0, 0, 0).AddDate(0, 0, 1))

		// Authenticated requests do not touch the client's bucket.
		env.API(key).Get(t, coursesPath).Expect(t, http.StatusOK)
		bad := []testenv.Client{env.API(""), env.API("svc_not_a_key"), env.API(keyOfAnotherService(t))}
		for i := 1; i <= 60; i++ {
			r := bad[i%len(bad)].Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
			expectRate(t, r, rate{60, int64(60 - i), reset, 1000, int64(1000 - i), day})
		}
		r := env.API(keyOfAnotherService(t)).Get(t, coursesPath)
		if wait := retryAfter(t, r); wait != 30 {
			t.Fatalf("Retry-After %d at 10:00:30, want 30", wait)
		}
		expectRate(t, r, rate{60, 0, reset, 1000, 940, day})
		// A right key from the blocked client is refused too, with the client's headers.
		r = env.API(key).Get(t, coursesPath)
		retryAfter(t, r)
		expectRate(t, r, rate{60, 0, reset, 1000, 940, day})

		// At the next minute the client may try again; the refusals counted nothing.
		env.Clock.Set(at(10, 1, 0))
		r = env.API(key).Get(t, coursesPath).Expect(t, http.StatusOK)
		if got := rateOf(t, r); got.Limit != 60 || got.Remaining != 59 || got.DailyRemaining != 998 {
			t.Fatalf("key headers %+v, want the key's own buckets", got)
		}
		r = env.API("").Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		expectRate(t, r, rate{60, 59, unix(at(10, 2, 0)), 1000, 939, day})
	})
}
