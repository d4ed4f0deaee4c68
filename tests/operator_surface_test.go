package tests

import (
	"net/http"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Wrong operator tokens are limited per client address like failed API keys: the same
// headers on every refusal, then 429 rate_limited with Retry-After. The right token is
// checked before the budget and always admitted: it is 32+ characters compared in
// constant time, so a blocked client learns nothing from it, and an operator is never
// locked out by someone else's wrong guesses (TestFailedAuthBudgetsArePerListener).
func TestWrongOperatorTokensAreRateLimitedPerClient(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		env.Clock.Set(at(10, 0, 30))
		reset, day := unix(at(10, 1, 0)), unix(at(0, 0, 0).AddDate(0, 0, 1))
		env.Admin().Get(t, "/internal/v1/workspaces/org_none/keys") // the right token counts nothing
		wrong := []testenv.Client{
			env.Admin().WithHeader("Authorization", "Bearer not-the-token"),
			env.Admin().WithHeader("Authorization", ""),
			env.Admin().WithHeader("Authorization", "Basic "+testenv.AdminToken),
		}
		for i := 1; i <= 60; i++ {
			r := wrong[i%len(wrong)].Post(t, "/internal/v1/workspaces", map[string]string{"name": "x", "ownerEmail": "a@example.com"}).
				ExpectError(t, http.StatusUnauthorized, "unauthorized")
			expectRate(t, r, rate{60, int64(60 - i), reset, 1000, int64(1000 - i), day})
		}
		r := wrong[0].Get(t, "/internal/v1/workspaces/org_none/keys")
		if wait := retryAfter(t, r); wait != 30 {
			t.Fatalf("Retry-After %d at 10:00:30, want 30", wait)
		}
		expectRate(t, r, rate{60, 0, reset, 1000, 940, day})
		env.Admin().Get(t, "/internal/v1/workspaces/org_none/keys").ExpectError(t, http.StatusNotFound, "not_found")

		env.Clock.Set(at(10, 1, 0))
		ws := env.CreateWorkspace(t, "Academy")
		env.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/keys").Expect(t, http.StatusOK)
	})
}

// Every operator route under a workspace, read or write, answers 404 not_found naming
// the workspace when it does not exist (before: empty lists, or a 500 on some writes).
func TestOperatorRoutesOfAMissingWorkspaceAre404(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		seen := map[string]bool{}
		checked := 0
		for _, rt := range env.Operator.App.GetRoutes(true) {
			if !strings.Contains(rt.Path, "/:org") || seen[rt.Method+rt.Path] {
				continue
			}
			seen[rt.Method+rt.Path] = true
			switch rt.Method {
			case http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete:
			default:
				continue
			}
			path := strings.ReplaceAll(rt.Path, ":org", "org_missing")
			path = strings.ReplaceAll(path, ":id", "x_1")
			var body any
			if rt.Method != http.MethodGet && rt.Method != http.MethodDelete {
				body = map[string]any{}
			}
			r := env.Admin().Do(t, rt.Method, path, body)
			if r.Status == http.StatusMethodNotAllowed {
				continue // the 405 fallback of a path, for a method it does not serve
			}
			r.ExpectError(t, http.StatusNotFound, "not_found")
			if !strings.Contains(string(r.Body), "workspace org_missing") {
				t.Errorf("%s %s: %s, want the missing workspace named", rt.Method, path, r.Body)
			}
			checked++
		}
		if checked < 25 {
			t.Fatalf("only %d operator routes checked", checked)
		}
	})
}
