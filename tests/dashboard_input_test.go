package tests

import (
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The API's text rule on the dashboard: every form field and query value (names too)
// and every path segment must be valid UTF-8 without NUL or other control characters.
// A violation answers 422 with the page re-shown and its message, and nothing is stored.
// SQLite stored such text and PostgreSQL answered 500 with ERROR lines.

// hostileText is what the fuzz puts in every field and parameter, alone and inside
// otherwise valid values ("1." makes a keyset position that reaches the database).
var hostileText = []string{
	"\x00", "a\x00b", "1.a\x00", "\x01", "\x1b[31m", "\x7f", "\u0085", "\u009b",
	"\xff", "\xc3\x28", "\xed\xa0\x80", "1.\xff", "a\nb", "a\tb", "\r",
}

// dashboardTables are what a dashboard request can change (sessions aside: they note the
// last visit).
var dashboardTables = []string{"api_keys", "webhook_subscriptions", "webhook_deliveries", "workspace_members",
	"sign_in_links", "sign_in_requests", "audit_log"}

// dashboardSnapshot dumps every row of dashboardTables.
func dashboardSnapshot(t *testing.T, env *testenv.Env) string {
	t.Helper()
	var b strings.Builder
	for _, table := range dashboardTables {
		rows, err := env.DB.Reader.Queryx("SELECT * FROM " + table)
		if err != nil {
			t.Fatalf("snapshot %s: %v", table, err)
		}
		var lines []string
		for rows.Next() {
			row := map[string]any{}
			if err := rows.MapScan(row); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, fmt.Sprint(row))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		sort.Strings(lines)
		fmt.Fprintf(&b, "%s: %d\n%s\n", table, len(lines), strings.Join(lines, "\n"))
	}
	return b.String()
}

type dashboardForm struct {
	path   string
	fields url.Values // valid values; each field in turn gets every hostile value
}

func TestDashboardInputRuleFuzz(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Hostile")
		p := d.dash.signedIn(t, ws)
		W := "/dashboard/w/" + ws
		rc := testenv.NewReceiver(t)
		hook, _ := addEndpoint(t, p, ws, rc.URL+"/a", "order.paid")
		p.Get(t, W+"/webhooks/"+hook).Expect(t, http.StatusOK)
		sent := p.Post(t, W+"/webhooks/"+hook+"/test", url.Values{"type": {"order.paid"}}).Expect(t, http.StatusSeeOther)
		delivery := regexpFind(t, `/deliveries/(evd_[a-z0-9_]+)`, sent.Header.Get("Location"))
		p.Get(t, W+"/keys").Expect(t, http.StatusOK)
		p.Post(t, W+"/keys", url.Values{"name": {"kept"}, "scopes": {"read:courses"}}).Expect(t, http.StatusCreated)
		key := regexpFind(t, `/keys/(key_[a-z0-9]+)/revoke`, body(p.Get(t, W+"/keys").Expect(t, http.StatusOK)))
		p.Post(t, W+"/members", url.Values{"email": {"dev@example.com"}, "role": {"developer"}}).Expect(t, http.StatusSeeOther)
		unused := d.dash.link(t, ws, "")
		token := regexpFind(t, `token=([A-Za-z0-9_-]+)`, unused)
		anonymous := d.Person()
		before := dashboardSnapshot(t, d.Env)

		// Every answer is checked; the failures are reported together, with a count per
		// status, so that one run shows the whole picture.
		statuses := map[int]int{}
		var failures []string
		expectRefused := func(r testenv.Response, what string, reshown bool) {
			statuses[r.Status]++
			switch {
			case r.Status != http.StatusUnprocessableEntity || !strings.Contains(body(r), "Nothing was changed"):
				failures = append(failures, fmt.Sprintf("%s: %d, want 422 with the rule's message", what, r.Status))
			case reshown && !strings.Contains(body(r), "<form"):
				failures = append(failures, fmt.Sprintf("%s: the page is not re-shown with a form", what))
			}
		}

		// Every query parameter of every page, and one the page does not know.
		pages := []struct {
			path   string
			params []string
		}{
			{"/dashboard/", nil},
			{"/dashboard/sign-in", []string{"notice"}},
			{"/dashboard/sign-in/link", []string{"token"}},
			{W + "/", []string{"from", "to"}},
			{W + "/keys", []string{"before", "notice"}},
			{W + "/keys/" + key + "/revoke", nil},
			{W + "/webhooks", []string{"notice"}},
			{W + "/webhooks/events", nil},
			{W + "/webhooks/" + hook, []string{"notice"}},
			{W + "/webhooks/" + hook + "/deliveries", []string{"status", "type", "q", "before", "notice", "recovered"}},
			{W + "/webhooks/" + hook + "/deliveries/" + delivery, []string{"notice"}},
			{W + "/members", []string{"notice"}},
			{W + "/members/remove", []string{"email"}},
			{W + "/audit", []string{"before"}},
		}
		requests := 0
		for _, pg := range pages {
			for _, name := range append(pg.params, "unknown") {
				for _, v := range hostileText {
					q := url.Values{name: {v}}
					r := p.Get(t, pg.path+"?"+q.Encode())
					requests++
					expectRefused(r, fmt.Sprintf("GET %s?%s=%q", pg.path, name, v), true)
				}
			}
			for _, v := range hostileText {
				r := p.Get(t, pg.path+"?"+url.Values{"x" + v: {"1"}}.Encode())
				requests++
				expectRefused(r, fmt.Sprintf("GET %s with parameter name %q", pg.path, "x"+v), true)
			}
		}

		// Every field of every form (its page shown first, as a browser would), one it
		// does not know, and a hostile field name. Sign-out comes last: it would end the
		// session if it went through.
		forms := []dashboardForm{
			{W + "/keys", url.Values{"name": {"k"}, "scopes": {"read:courses"}}},
			{W + "/keys/" + key + "/revoke", url.Values{}},
			{W + "/webhooks", url.Values{"url": {rc.URL + "/b"}, "events": {"order.paid"}}},
			{W + "/webhooks/" + hook, url.Values{"url": {rc.URL + "/c"}, "events": {"order.paid"}}},
			{W + "/webhooks/" + hook + "/disable", url.Values{}},
			{W + "/webhooks/" + hook + "/enable", url.Values{}},
			{W + "/webhooks/" + hook + "/rotate", url.Values{}},
			{W + "/webhooks/" + hook + "/test", url.Values{"type": {"order.paid"}}},
			{W + "/webhooks/" + hook + "/recover", url.Values{"since": {"2020-01-01T00:00"}}},
			{W + "/webhooks/" + hook + "/deliveries/" + delivery + "/resend", url.Values{}},
			{W + "/members", url.Values{"email": {"new@example.com"}, "role": {"developer"}}},
			{W + "/members/remove", url.Values{"email": {"dev@example.com"}}},
			{"/dashboard/sign-in", url.Values{"email": {"owner@example.com"}}},
			{"/dashboard/sign-in/link", url.Values{"token": {token}}},
			{"/dashboard/sign-out", url.Values{"workspace": {ws}}},
		}
		for _, f := range forms {
			who := p
			if strings.HasPrefix(f.path, "/dashboard/sign-in") {
				who = anonymous
				who.Get(t, "/dashboard/sign-in").Expect(t, http.StatusOK) // the double-submit cookie
			}
			names := []string{"note"}
			for name := range f.fields {
				names = append(names, name)
			}
			sort.Strings(names)
			for _, name := range names {
				for _, v := range hostileText {
					form := url.Values{}
					for k, vs := range f.fields {
						form[k] = append([]string(nil), vs...)
					}
					form.Set(name, v)
					r := who.Post(t, f.path, form)
					requests++
					expectRefused(r, fmt.Sprintf("POST %s %s=%q", f.path, name, v), true)
				}
			}
			for _, v := range hostileText {
				form := url.Values{"x" + v: {"1"}}
				for k, vs := range f.fields {
					form[k] = append([]string(nil), vs...)
				}
				r := who.Post(t, f.path, form)
				requests++
				expectRefused(r, fmt.Sprintf("POST %s with field name %q", f.path, "x"+v), true)
			}
		}

		// Path segments: ids and the workspace.
		for _, v := range []string{"%00", "%FF", "%C3%28", "%1B", "%7F"} {
			for _, path := range []string{W + "/keys/key_" + v + "/revoke", "/dashboard/w/org_" + v + "/keys", W + "/webhooks/whk_" + v + "/deliveries"} {
				requests++
				expectRefused(p.Get(t, path), "GET "+path, false) // no form to re-show for a malformed address
			}
		}

		if len(failures) > 0 {
			shown := failures
			if len(shown) > 40 {
				shown = shown[:40]
			}
			t.Errorf("%d of %d hostile requests not refused (answers by status %v):\n%s", len(failures), requests, statuses, strings.Join(shown, "\n"))
		}
		if after := dashboardSnapshot(t, d.Env); after != before {
			t.Errorf("hostile requests changed stored state:\nbefore:\n%.3000s\nafter:\n%.3000s", before, after)
		}
		if t.Failed() {
			return
		}
		// The session survived the hostile sign-outs and valid input still works.
		p.Get(t, W+"/keys").Expect(t, http.StatusOK)
		p.Post(t, W+"/keys", url.Values{"name": {"Zoë 😀 \uFFFD"}, "scopes": {"read:courses"}}).Expect(t, http.StatusCreated)
		t.Logf("%d hostile requests, all 422, nothing stored", requests)
	})
}
