package tests

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The notice banner speaks only the site's fixed sentences; CSRF tokens come from the
// form body only; the token of the forms before sign-in is one the service minted.

// crafted is text a link someone else made tries to show in the site's own voice.
const crafted = "Your account is suspended call 555 0100"

func TestDashboardNoticesComeFromFixedKeys(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Notices")
		p := d.dash.signedIn(t, ws)
		W := "/dashboard/w/" + ws
		rc := testenv.NewReceiver(t)
		hook, _ := addEndpoint(t, p, ws, rc.URL+"/a", "order.paid")
		log := W + "/webhooks/" + hook + "/deliveries"

		for _, q := range []string{"recovered=" + url.QueryEscape(crafted), "recovered=3+" + url.QueryEscape(crafted),
			"notice=" + url.QueryEscape(crafted), "recovered=-1"} {
			page := body(p.Get(t, log+"?"+q).Expect(t, http.StatusOK))
			if strings.Contains(page, "Your account") || strings.Contains(page, "class=\"notice\"") {
				t.Fatalf("?%s shows a banner:\n%s", q, page)
			}
		}
		page := body(p.Get(t, log+"?recovered=3").Expect(t, http.StatusOK))
		if !strings.Contains(page, "3 failed deliveries queued to be sent again.") {
			t.Fatalf("?recovered=3 shows no count:\n%s", page)
		}
		for _, path := range []string{"/dashboard/sign-in", W + "/keys", W + "/webhooks", W + "/webhooks/" + hook, W + "/members"} {
			who := p
			if path == "/dashboard/sign-in" {
				who = d.Person()
			}
			page := body(who.Get(t, path+"?notice="+url.QueryEscape(crafted)).Expect(t, http.StatusOK))
			if strings.Contains(page, "Your account") || strings.Contains(page, "class=\"notice\"") {
				t.Fatalf("%s?notice=... shows a banner:\n%s", path, page)
			}
		}
	})
}

// rawForm posts form to path with the cookies given, as a hand-made request would.
func rawForm(t *testing.T, env *testenv.Env, path string, form url.Values, cookies map[string]string) (int, string) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for n, v := range cookies {
		req.AddCookie(&http.Cookie{Name: n, Value: v})
	}
	res, err := env.Public.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func countRows(t *testing.T, env *testenv.Env, query string, args ...any) int {
	t.Helper()
	var n int
	if err := env.DB.Reader.Get(&n, env.DB.Rebind(query), args...); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestDashboardCSRFTokenOnlyFromTheFormBody(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Tokens")
		p := d.signedIn(t, ws)
		W := "/dashboard/w/" + ws
		keys := func() int { return countRows(t, d.Env, `SELECT COUNT(*) FROM api_keys WHERE workspace_id = ?`, ws) }

		// Signed in: the session's token in the query string, none in the body.
		p.Get(t, W+"/keys").Expect(t, http.StatusOK)
		token := p.CSRF()
		before := keys()
		r := p.Post(t, W+"/keys?csrf="+url.QueryEscape(token), url.Values{"csrf": {""}, "name": {"via query"}, "scopes": {"read:courses"}})
		if diff := cmp.Diff([]int{http.StatusForbidden, before}, []int{r.Status, keys()}); diff != "" {
			t.Fatalf("token in the query: status, keys (-want +got):\n%s", diff)
		}
		p.Get(t, W+"/keys").Expect(t, http.StatusOK)
		p.Post(t, W+"/keys", url.Values{"name": {"via body"}, "scopes": {"read:courses"}}).Expect(t, http.StatusCreated)

		// Before sign-in: the double-submit token in the query string, none in the body.
		anon := d.Person()
		anon.Get(t, "/dashboard/sign-in").Expect(t, http.StatusOK)
		r = anon.Post(t, "/dashboard/sign-in?csrf="+url.QueryEscape(anon.CSRF()), url.Values{"csrf": {""}, "email": {"owner@example.com"}})
		if diff := cmp.Diff([]int{http.StatusForbidden, 0}, []int{r.Status, len(d.MailedLinks(t, "owner@example.com"))}); diff != "" {
			t.Fatalf("anonymous token in the query: status, links mailed (-want +got):\n%s", diff)
		}
	})
}

func TestDashboardAnonymousCSRFTokenIsMintedByTheService(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		d.CreateWorkspace(t, "Minted")
		const cookie = "creatorapi_csrf"
		mailed := func() int { return len(d.MailedLinks(t, "owner@example.com")) }

		// A value of the attacker's choosing (long enough for the old rule), planted as the
		// cookie and repeated in the form: refused, nothing mailed.
		for _, forged := range []string{strings.Repeat("a", 43), strings.Repeat("A", 43) + "." + strings.Repeat("B", 43)} {
			status, page := rawForm(t, d.Env, "/dashboard/sign-in", url.Values{"csrf": {forged}, "email": {"owner@example.com"}}, map[string]string{cookie: forged})
			if diff := cmp.Diff([]int{http.StatusForbidden, 0}, []int{status, mailed()}); diff != "" {
				t.Fatalf("forged token %q: status, mailed (-want +got):\n%s\n%s", forged, diff, page)
			}
		}

		// The service's own token works; a forged cookie is replaced when the form is shown.
		anon := d.Person()
		anon.Get(t, "/dashboard/sign-in").Expect(t, http.StatusOK)
		minted := anon.Cookie(cookie)
		if minted == "" || anon.CSRF() != minted {
			t.Fatalf("sign-in form token %q, cookie %q", anon.CSRF(), minted)
		}
		// Its MAC altered by one character: refused.
		last := minted[len(minted)-1]
		swap := byte('A')
		if last == 'A' {
			swap = 'B'
		}
		tampered := minted[:len(minted)-1] + string(swap)
		status, _ := rawForm(t, d.Env, "/dashboard/sign-in", url.Values{"csrf": {tampered}, "email": {"owner@example.com"}}, map[string]string{cookie: tampered})
		if diff := cmp.Diff([]int{http.StatusForbidden, 0}, []int{status, mailed()}); diff != "" {
			t.Fatalf("tampered token: status, mailed (-want +got):\n%s", diff)
		}
		status, _ = rawForm(t, d.Env, "/dashboard/sign-in", url.Values{"csrf": {minted}, "email": {"owner@example.com"}}, map[string]string{cookie: minted})
		if diff := cmp.Diff([]int{http.StatusOK, 1}, []int{status, mailed()}); diff != "" {
			t.Fatalf("minted token: status, mailed (-want +got):\n%s", diff)
		}
		req := httptest.NewRequest(http.MethodGet, "/dashboard/sign-in", nil)
		req.AddCookie(&http.Cookie{Name: cookie, Value: strings.Repeat("a", 43)})
		res, err := d.Public.Test(req, -1)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		var fresh string
		for _, c := range res.Cookies() {
			if c.Name == cookie {
				fresh = c.Value
			}
		}
		if fresh == "" || fresh == strings.Repeat("a", 43) {
			t.Fatalf("a forged cookie is kept by the sign-in form (new value %q)", fresh)
		}
	})
}
