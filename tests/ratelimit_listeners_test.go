package tests

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The public and operator listeners count failed authentications apart, and the
// operator's token is checked before its budget: wrong API keys from an address never
// refuse the right admin token, and the right admin token counts nothing.
func TestFailedAuthBudgetsArePerListener(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		_, key := env.CreateKey(t, ws, "read:courses")
		env.Clock.Set(at(10, 0, 30))
		keysPath := fmt.Sprintf("/internal/v1/workspaces/%s/keys", ws)
		wrongToken := env.Admin().WithHeader("Authorization", "Bearer not-the-operator-token-0123456789abcdef")

		// The right token is admitted without touching the operator's budget.
		for range 5 {
			env.Admin().Get(t, keysPath).Expect(t, http.StatusOK)
		}
		r := wrongToken.Get(t, keysPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		if got := rateOf(t, r); got.Remaining != 59 {
			t.Fatalf("operator budget after 5 right tokens and 1 wrong: remaining %d, want 59", got.Remaining)
		}

		// Exhaust the public API's budget from this address.
		for range 60 {
			env.API("svc_not_a_key").Get(t, coursesPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		}
		env.API("svc_not_a_key").Get(t, coursesPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		// The operator listener still admits the right token and counts wrong ones on its own.
		env.Admin().Get(t, keysPath).Expect(t, http.StatusOK)
		r = wrongToken.Get(t, keysPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		if got := rateOf(t, r); got.Remaining != 58 {
			t.Fatalf("operator budget after the public one ran out: remaining %d, want 58", got.Remaining)
		}

		// Exhaust the operator's budget too: wrong tokens are refused, the right one is not.
		for range 58 {
			wrongToken.Get(t, keysPath).ExpectError(t, http.StatusUnauthorized, "unauthorized")
		}
		wrongToken.Get(t, keysPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		wrongToken.Get(t, keysPath).ExpectError(t, http.StatusTooManyRequests, "rate_limited")
		env.Admin().Get(t, keysPath).Expect(t, http.StatusOK)

		// At the next minute the public API admits its key again; the operator's
		// refusals did not spill over.
		env.Clock.Set(at(10, 1, 0))
		env.API(key).Get(t, coursesPath).Expect(t, http.StatusOK)
	})
}
