package tests

import (
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every answer of the public API carries the six headers, and every authenticated
// answer but a 429 has consumed quota, whatever its status.
func TestRateLimitHeadersOnEveryStatus(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL, faultyEndpoints())
		ws := env.CreateWorkspace(t, "Academy")
		_, full := env.CreateKeyWithQuota(t, ws, 7, 100, "read:courses")
		_, noScope := env.CreateKey(t, ws, "read:orders")
		env.Clock.Set(at(10, 0, 0))
		reset, day := unix(at(10, 1, 0)), unix(at(0, 0, 0).AddDate(0, 0, 1))

		r := env.API("").Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		expectRate(t, r, rate{60, 59, reset, 1000, 999, day}) // the client address's bucket
		noRetryAfter(t, r)

		steps := []struct {
			key, method, path string
			status            int
			code              string
		}{
			{noScope, http.MethodGet, coursesPath, http.StatusForbidden, "forbidden"},
			{noScope, http.MethodGet, "/api/v1/nowhere", http.StatusNotFound, "not_found"},
			{noScope, http.MethodDelete, coursesPath, http.StatusMethodNotAllowed, "method_not_allowed"},
		}
		for i, s := range steps {
			r := env.API(s.key).Do(t, s.method, s.path, nil).ExpectError(t, s.status, s.code)
			expectRate(t, r, rate{60, int64(59 - i), reset, 1000, int64(999 - i), day})
			noRetryAfter(t, r)
		}

		steps = []struct {
			key, method, path string
			status            int
			code              string
		}{
			{full, http.MethodGet, coursesPath + "?limit=0", http.StatusUnprocessableEntity, "invalid_request"},
			{full, http.MethodGet, coursesPath + "/crs_missing", http.StatusNotFound, "not_found"},
			{full, http.MethodGet, "/api/v1/test/fault", http.StatusInternalServerError, "internal_error"},
			{full, http.MethodGet, "/api/v1/test/panic", http.StatusInternalServerError, "internal_error"},
		}
		for i, s := range steps {
			r := env.API(s.key).Do(t, s.method, s.path, nil).ExpectError(t, s.status, s.code)
			expectRate(t, r, rate{7, int64(6 - i), reset, 100, int64(99 - i), day})
			noRetryAfter(t, r)
		}
		for i := 0; i < 3; i++ {
			env.API(full).Get(t, coursesPath).Expect(t, http.StatusOK)
		}
		r = env.API(full).Get(t, coursesPath)
		if wait := retryAfter(t, r); wait != 60 {
			t.Fatalf("Retry-After %d, want 60", wait)
		}
		expectRate(t, r, rate{7, 0, reset, 100, 93, day})
	})
}
