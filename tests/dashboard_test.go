package tests

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// dashEnv is a service with a handle on the members module (to issue links as the CLI does).
type dashEnv struct {
	*testenv.Env
	Members members.Application
}

func startDashboard(t *testing.T, dbURL string, publicURL string, extra ...fx.Option) dashEnv {
	t.Helper()
	var m members.Application
	opts := append([]fx.Option{fx.Populate(&m)}, extra...)
	if publicURL != "" {
		opts = append(opts, fx.Decorate(func(c compose.Config) compose.Config { c.PublicURL = publicURL; return c }))
	}
	env := testenv.Start(t, dbURL, opts...)
	return dashEnv{Env: env, Members: m}
}

// link issues a sign-in link as `creatorapi dashboard link` does.
func (d dashEnv) link(t *testing.T, ws, email string) string {
	t.Helper()
	l, err := d.Members.Commands.IssueLink.Handle(context.Background(), membercmd.IssueLink{WorkspaceID: ws, Email: email})
	if err != nil {
		t.Fatalf("issue link: %v", err)
	}
	return l.URL
}

// signedIn is the workspace owner (owner@example.com) signed in to ws.
func (d dashEnv) signedIn(t *testing.T, ws string) *testenv.Person {
	t.Helper()
	p := d.Person()
	r := p.SignIn(t, d.link(t, ws, ""))
	if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/dashboard/w/"+ws+"/" {
		t.Fatalf("sign in: %d %s", r.Status, r.Header.Get("Location"))
	}
	p.Get(t, "/dashboard/w/"+ws+"/").Expect(t, http.StatusOK)
	return p
}

func (d dashEnv) auditActions(t *testing.T, ws string) []string {
	t.Helper()
	var out []string
	err := d.DB.Reader.Select(&out, d.DB.Rebind(`SELECT action FROM audit_log WHERE workspace_id = ? ORDER BY created_at, id`), ws)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func body(r testenv.Response) string { return string(r.Body) }

func TestDashboardSignInLinkLifecycle(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Lifecycle")
		p := d.Person()

		// Not signed in: every page leads to the sign-in page.
		if r := p.Get(t, "/dashboard/w/"+ws+"/keys"); r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/dashboard/sign-in" {
			t.Fatalf("anonymous keys page: %d %s", r.Status, r.Header.Get("Location"))
		}
		// The sign-in page answers the same for an account and for nobody.
		p.Get(t, "/dashboard/sign-in").Expect(t, http.StatusOK)
		known := body(p.Post(t, "/dashboard/sign-in", url.Values{"email": {"Owner@Example.com"}}).Expect(t, http.StatusOK))
		p.Get(t, "/dashboard/sign-in")
		unknown := body(p.Post(t, "/dashboard/sign-in", url.Values{"email": {"nobody@example.com"}}).Expect(t, http.StatusOK))
		if known != unknown || !strings.Contains(known, "Check your e-mail") {
			t.Fatalf("answers differ or unclear:\n%s\n---\n%s", known, unknown)
		}
		if n := len(d.MailedLinks(t, "nobody@example.com")); n != 0 {
			t.Fatalf("%d links mailed to an address without an account", n)
		}
		links := d.MailedLinks(t, "owner@example.com")
		if len(links) != 1 || !strings.HasPrefix(links[0], "http://localhost:8080/dashboard/sign-in/link?token=") {
			t.Fatalf("mailed links %v", links)
		}
		// Opening the link (twice, as a mail scanner might) uses nothing up.
		u, _ := url.Parse(links[0])
		for i := 0; i < 2; i++ {
			r := p.Get(t, u.RequestURI()).Expect(t, http.StatusOK)
			if !strings.Contains(body(r), ">Sign in</button>") {
				t.Fatalf("link page has no Sign in button: %s", r.Body)
			}
		}
		r := p.SignIn(t, links[0])
		if r.Status != http.StatusSeeOther || r.Header.Get("Location") != "/dashboard/w/"+ws+"/" {
			t.Fatalf("sign in: %d %s %s", r.Status, r.Header.Get("Location"), r.Body)
		}
		p.Get(t, "/dashboard/w/"+ws+"/").Expect(t, http.StatusOK)
		// Used twice: refused, with a way to ask again.
		again := d.Person().SignIn(t, links[0])
		if again.Status != http.StatusUnauthorized || !strings.Contains(body(again), "expired or has already been used") {
			t.Fatalf("second use: %d %s", again.Status, again.Body)
		}
		// Expired after 15 minutes.
		late := d.link(t, ws, "")
		d.Clock.Advance(15*time.Minute + time.Second)
		d.Person().SignIn(t, late).Expect(t, http.StatusUnauthorized)
		// Wrong workspace: a link whose person left the workspace is refused, and a
		// session of one workspace sees another as absent.
		p.Get(t, "/dashboard/w/"+ws+"/members")
		p.Post(t, "/dashboard/w/"+ws+"/members", url.Values{"email": {"dev@example.com"}, "role": {"developer"}}).Expect(t, http.StatusSeeOther)
		d.Person().SignIn(t, d.MailedLinks(t, "dev@example.com")[0]).Expect(t, http.StatusSeeOther) // accepts the invitation
		devLink := d.link(t, ws, "dev@example.com")
		p.Get(t, "/dashboard/w/"+ws+"/members")
		p.Post(t, "/dashboard/w/"+ws+"/members/remove", url.Values{"email": {"dev@example.com"}}).Expect(t, http.StatusSeeOther)
		d.Person().SignIn(t, devLink).Expect(t, http.StatusUnauthorized)
		other := d.CreateWorkspace(t, "Other") // same owner address: a second workspace of the same person
		otherOwner := d.Admin().Post(t, "/internal/v1/workspaces", map[string]string{"name": "Stranger", "ownerEmail": "stranger@example.com"}).
			Expect(t, http.StatusCreated).JSON(t)["id"].(string)
		p.Get(t, "/dashboard/w/"+otherOwner+"/").Expect(t, http.StatusNotFound)
		p.Get(t, "/dashboard/w/"+other+"/").Expect(t, http.StatusOK)
		if _, err := d.Members.Commands.IssueLink.Handle(context.Background(), membercmd.IssueLink{WorkspaceID: otherOwner, Email: "owner@example.com"}); err == nil {
			t.Fatal("a link for a workspace the person does not belong to was issued")
		}
		acts := strings.Join(d.auditActions(t, ws), " ")
		for _, want := range []string{"sign_in_link.sent", "session.started", "sign_in_link.issued", "member.invited", "member.removed"} {
			if !strings.Contains(acts, want) {
				t.Errorf("audit log lacks %s: %s", want, acts)
			}
		}
	})
}

func TestDashboardSignInRequestsAreLimited(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		d.CreateWorkspace(t, "Limits")
		p := d.Person()
		for i := 0; i < 5; i++ {
			p.Get(t, "/dashboard/sign-in")
			p.Post(t, "/dashboard/sign-in", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusOK)
		}
		p.Get(t, "/dashboard/sign-in")
		r := p.Post(t, "/dashboard/sign-in", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusTooManyRequests)
		if !strings.Contains(body(r), "Wait 15 minutes") {
			t.Fatalf("unclear limit page: %s", r.Body)
		}
		// The same limit for an address without an account: the answer reveals nothing.
		for i := 0; i < 5; i++ {
			p.Get(t, "/dashboard/sign-in")
			p.Post(t, "/dashboard/sign-in", url.Values{"email": {"ghost@example.com"}}).Expect(t, http.StatusOK)
		}
		p.Get(t, "/dashboard/sign-in")
		p.Post(t, "/dashboard/sign-in", url.Values{"email": {"ghost@example.com"}}).Expect(t, http.StatusTooManyRequests)
		// Per client address: many addresses from one client.
		for i := 0; i < 10; i++ {
			p.Get(t, "/dashboard/sign-in")
			p.Post(t, "/dashboard/sign-in", url.Values{"email": {"probe" + string(rune('a'+i)) + "@example.com"}})
		}
		p.Get(t, "/dashboard/sign-in")
		p.Post(t, "/dashboard/sign-in", url.Values{"email": {"another@example.com"}}).Expect(t, http.StatusTooManyRequests)
		// The window passes.
		d.Clock.Advance(16 * time.Minute)
		p.Get(t, "/dashboard/sign-in")
		p.Post(t, "/dashboard/sign-in", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusOK)
	})
}

func TestDashboardSessionExpiry(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Sessions")
		home := "/dashboard/w/" + ws + "/"
		// Idle for 12 hours: signed out.
		p := d.signedIn(t, ws)
		d.Clock.Advance(11 * time.Hour)
		p.Get(t, home).Expect(t, http.StatusOK)
		d.Clock.Advance(11 * time.Hour) // 22 h after sign-in, 11 h idle
		p.Get(t, home).Expect(t, http.StatusOK)
		d.Clock.Advance(12 * time.Hour)
		if r := p.Get(t, home); r.Status != http.StatusSeeOther {
			t.Fatalf("idle session still works: %d", r.Status)
		}
		// Used every 11 hours: still ended after 30 days.
		p = d.signedIn(t, ws)
		start := d.Clock.Now()
		for d.Clock.Now().Before(start.Add(30*24*time.Hour - 11*time.Hour)) {
			d.Clock.Advance(11 * time.Hour)
			p.Get(t, home).Expect(t, http.StatusOK)
		}
		d.Clock.Set(start.Add(30 * 24 * time.Hour))
		if r := p.Get(t, home); r.Status != http.StatusSeeOther {
			t.Fatalf("30-day-old session still works: %d", r.Status)
		}
		// Sign out ends the session on the server: the old cookie no longer works.
		p = d.signedIn(t, ws)
		cookie := p.Cookie("creatorapi_session")
		p.Post(t, "/dashboard/sign-out", url.Values{"workspace": {ws}}).Expect(t, http.StatusSeeOther)
		replay := d.Person()
		replay.Get(t, "/dashboard/sign-in")
		if cookie == "" {
			t.Fatal("no session cookie")
		}
		r := replayWithCookie(t, d, "creatorapi_session", cookie, home)
		if r.Status != http.StatusSeeOther {
			t.Fatalf("signed-out cookie still works: %d", r.Status)
		}
	})
}

func replayWithCookie(t *testing.T, d dashEnv, name, value, path string) testenv.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, path, nil)
	req.AddCookie(&http.Cookie{Name: name, Value: value})
	res, err := d.Public.Test(req, -1)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return testenv.Response{Status: res.StatusCode, Header: res.Header}
}

func TestDashboardCSRFRefusalChangesNothing(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "CSRF")
		p := d.signedIn(t, ws)
		keyID, _ := d.CreateKey(t, ws, "read:courses")
		before := d.auditActions(t, ws)
		for _, c := range []struct {
			path string
			form url.Values
		}{
			{"/dashboard/w/" + ws + "/keys", url.Values{"name": {"x"}, "scopes": {"read:courses"}}},
			{"/dashboard/w/" + ws + "/keys/" + keyID + "/revoke", nil},
			{"/dashboard/w/" + ws + "/members", url.Values{"email": {"x@example.com"}, "role": {"owner"}}},
			{"/dashboard/sign-out", url.Values{"workspace": {ws}}},
		} {
			for _, token := range []string{"", "forged"} {
				form := url.Values{}
				for k, v := range c.form {
					form[k] = v
				}
				form.Set("csrf", token)
				p.Post(t, c.path, form).Expect(t, http.StatusForbidden)
			}
		}
		after := d.auditActions(t, ws)
		if len(after) != len(before) {
			t.Fatalf("audit log changed: %v -> %v", before, after)
		}
		var keys []map[string]any
		for _, k := range d.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/keys").Expect(t, http.StatusOK).JSON(t)["data"].([]any) {
			keys = append(keys, k.(map[string]any))
		}
		if len(keys) != 1 || keys[0]["status"] != "active" {
			t.Fatalf("keys changed: %v", keys)
		}
		p.Get(t, "/dashboard/w/"+ws+"/").Expect(t, http.StatusOK) // still signed in
		// The anonymous forms need their token too.
		q := d.Person()
		q.Post(t, "/dashboard/sign-in", url.Values{"email": {"owner@example.com"}, "csrf": {"x"}}).Expect(t, http.StatusForbidden)
		if n := len(d.MailedLinks(t, "owner@example.com")); n != 0 {
			t.Fatalf("a refused request mailed %d links", n)
		}
	})
}

func TestDashboardCookieAttributes(t *testing.T) {
	testenv.Parallel(t)
	for _, c := range []struct{ publicURL, name string }{
		{"", "creatorapi_session"},
		{"https://creators.example.com", "__Host-creatorapi_session"},
	} {
		t.Run(c.name, func(t *testing.T) {
			testenv.Parallel(t)
			d := startDashboard(t, testenv.NewSQLiteURL(t), c.publicURL)
			ws := d.CreateWorkspace(t, "Cookies")
			p := d.Person()
			link := d.link(t, ws, "")
			if c.publicURL != "" && !strings.HasPrefix(link, c.publicURL+"/dashboard/sign-in/link?token=") {
				t.Fatalf("link %s not on the public URL", link)
			}
			r := p.SignIn(t, link)
			var set string
			for _, v := range r.Header.Values("Set-Cookie") {
				if strings.HasPrefix(v, c.name+"=") {
					set = strings.ToLower(v)
				}
			}
			if set == "" {
				t.Fatalf("no %s cookie in %v", c.name, r.Header.Values("Set-Cookie"))
			}
			for _, want := range []string{"httponly", "samesite=lax", "path=/"} {
				if !strings.Contains(set, want) {
					t.Errorf("cookie %q lacks %s", set, want)
				}
			}
			if secure := strings.Contains(set, "secure"); secure != (c.publicURL != "") {
				t.Errorf("cookie %q: Secure should be %v", set, c.publicURL != "")
			}
			if strings.Contains(set, "domain=") {
				t.Errorf("cookie %q must not name a domain", set)
			}
		})
	}
}

func TestDashboardSecurityHeaders(t *testing.T) {
	d := startDashboard(t, testenv.NewSQLiteURL(t), "")
	ws := d.CreateWorkspace(t, "Headers")
	p := d.signedIn(t, ws)
	for _, path := range []string{"/dashboard/sign-in", "/dashboard/w/" + ws + "/", "/dashboard/w/" + ws + "/keys", "/dashboard/nothing", "/dashboard/assets/app.js"} {
		r := p.Get(t, path)
		csp := r.Header.Get("Content-Security-Policy")
		if csp == "" || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("%s: CSP %q", path, csp)
		}
		if diff := cmp.Diff([]string{"nosniff", "same-origin"}, []string{r.Header.Get("X-Content-Type-Options"), r.Header.Get("Referrer-Policy")}); diff != "" {
			t.Errorf("%s: X-Content-Type-Options, Referrer-Policy (-want +got):\n%s", path, diff)
		}
		if strings.Contains(body(r), "<script>") || strings.Contains(body(r), " onclick=") {
			t.Errorf("%s: inline script", path)
		}
	}
}

func TestDashboardKeysCreateUseRevoke(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Keys")
		d.CreatePublishedCourse(t, ws, "Course")
		p := d.signedIn(t, ws)
		keysPath := "/dashboard/w/" + ws + "/keys"
		page := body(p.Get(t, keysPath).Expect(t, http.StatusOK))
		for _, word := range []string{"Create key", ">Name<", `value="read:courses"> read:courses`, `value="read:analytics"> read:analytics`, "No keys yet"} {
			if !strings.Contains(page, word) {
				t.Errorf("keys page lacks %q", word)
			}
		}
		// A form error keeps what was typed.
		bad := p.Post(t, keysPath, url.Values{"name": {"CRM sync"}}).Expect(t, http.StatusUnprocessableEntity)
		if !strings.Contains(body(bad), "at least one scope") || !strings.Contains(body(bad), `value="CRM sync"`) {
			t.Fatalf("form error page: %s", bad.Body)
		}
		r := p.Post(t, keysPath, url.Values{"name": {"CRM sync"}, "scopes": {"read:courses", "read:students"}}).Expect(t, http.StatusCreated)
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("secret page Cache-Control %q", r.Header.Get("Cache-Control"))
		}
		secret := regexpFind(t, `value="(svc_[A-Za-z0-9]+)"`, body(r))
		if !strings.Contains(body(r), "client-side bundles") || !strings.Contains(body(r), "Copy") {
			t.Fatal("secret page lacks the guidance or the copy button")
		}
		d.API(secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		d.API(secret).Get(t, "/api/v1/orders").ExpectError(t, http.StatusForbidden, "forbidden")

		// Never again: not on the list, not in any other page.
		list := body(p.Get(t, keysPath).Expect(t, http.StatusOK))
		for _, path := range []string{keysPath, "/dashboard/w/" + ws + "/", "/dashboard/w/" + ws + "/audit"} {
			if strings.Contains(body(p.Get(t, path)), secret[4:]) {
				t.Fatalf("%s shows the secret", path)
			}
		}
		hint := secret[:16] + "…" + secret[len(secret)-4:]
		if !strings.Contains(list, hint) || strings.Contains(list, "never") || !strings.Contains(list, "60/min, 1000/day") {
			t.Fatalf("list lacks %s, the last use or the quota: %s", hint, list)
		}
		keyID := regexpFind(t, `/keys/(key_[a-z0-9]+)/revoke`, list)

		// Last use appears (after the flush or from memory), rotation advice after 90 days.
		d.Clock.Advance(91 * 24 * time.Hour)
		p = d.signedIn(t, ws)
		list = body(p.Get(t, keysPath).Expect(t, http.StatusOK))
		if !strings.Contains(list, "Older than 90 days") || strings.Contains(list, "never") {
			t.Fatalf("after 91 days: %s", list)
		}

		// Revoke asks first; the next request with the key is 401.
		confirm := body(p.Get(t, keysPath+"/"+keyID+"/revoke").Expect(t, http.StatusOK))
		if !strings.Contains(confirm, "Revoke “CRM sync”?") {
			t.Fatalf("confirmation: %s", confirm)
		}
		d.API(secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		p.Post(t, keysPath+"/"+keyID+"/revoke", nil).Expect(t, http.StatusSeeOther)
		d.API(secret).Get(t, "/api/v1/courses").ExpectError(t, http.StatusUnauthorized, "unauthorized")
		if !strings.Contains(body(p.Get(t, keysPath+"?notice=revoked")), "Revoked") {
			t.Fatal("list does not show the revocation")
		}

		// The audit log names the person and the actions, newest first.
		audit := body(p.Get(t, "/dashboard/w/"+ws+"/audit").Expect(t, http.StatusOK))
		rev, cre := strings.Index(audit, "key.revoked"), strings.Index(audit, "key.created")
		if rev < 0 || cre < 0 || rev > cre || !strings.Contains(audit, "owner@example.com") {
			t.Fatalf("audit page: %s", audit)
		}
	})
}

func TestDashboardRoles(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Roles")
		owner := d.signedIn(t, ws)
		members := "/dashboard/w/" + ws + "/members"
		page := body(owner.Get(t, members).Expect(t, http.StatusOK))
		if !strings.Contains(page, "No pending invitations") || !strings.Contains(page, ">Invite</button>") {
			t.Fatalf("members page: %s", page)
		}
		owner.Post(t, members, url.Values{"email": {"Dev@Example.com"}, "role": {"developer"}}).Expect(t, http.StatusSeeOther)
		page = body(owner.Get(t, members+"?notice=invited").Expect(t, http.StatusOK))
		if !strings.Contains(page, "Pending invitations") || !strings.Contains(page, "dev@example.com") || strings.Contains(page, "No pending invitations") {
			t.Fatalf("pending invitation not shown: %s", page)
		}
		// Inviting twice is a form error.
		owner.Post(t, members, url.Values{"email": {"dev@example.com"}, "role": {"owner"}}).Expect(t, http.StatusUnprocessableEntity)

		links := d.MailedLinks(t, "dev@example.com")
		if len(links) != 1 {
			t.Fatalf("invitation mails %v", links)
		}
		dev := d.Person()
		dev.SignIn(t, links[0]).Expect(t, http.StatusSeeOther)
		home := body(dev.Get(t, "/dashboard/w/"+ws+"/").Expect(t, http.StatusOK))
		if strings.Contains(home, ">Members<") || strings.Contains(home, ">Audit log<") || !strings.Contains(home, ">API keys<") {
			t.Fatalf("developer navigation: %s", home)
		}
		dev.Get(t, members).Expect(t, http.StatusForbidden)
		dev.Get(t, "/dashboard/w/"+ws+"/audit").Expect(t, http.StatusForbidden)
		dev.Get(t, "/dashboard/w/"+ws+"/keys").Expect(t, http.StatusOK)
		dev.Post(t, members, url.Values{"email": {"friend@example.com"}, "role": {"owner"}}).Expect(t, http.StatusForbidden)
		dev.Get(t, "/dashboard/w/"+ws+"/keys")
		dev.Post(t, "/dashboard/w/"+ws+"/members/remove", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusForbidden)
		dev.Get(t, "/dashboard/w/"+ws+"/keys")
		dev.Post(t, "/dashboard/w/"+ws+"/keys", url.Values{"name": {"dev key"}, "scopes": {"read:courses"}}).Expect(t, http.StatusCreated)

		// The joined developer is no longer pending; the founder cannot be removed.
		page = body(owner.Get(t, members).Expect(t, http.StatusOK))
		if !strings.Contains(page, "No pending invitations") {
			t.Fatalf("developer still pending: %s", page)
		}
		owner.Get(t, members+"/remove?email=owner@example.com").Expect(t, http.StatusNotFound)
		owner.Get(t, members)
		owner.Post(t, members+"/remove", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusUnprocessableEntity)
		// Removing the developer ends their access at once.
		owner.Get(t, members+"/remove?email=dev@example.com").Expect(t, http.StatusOK)
		owner.Post(t, members+"/remove", url.Values{"email": {"dev@example.com"}}).Expect(t, http.StatusSeeOther)
		if r := dev.Get(t, "/dashboard/w/"+ws+"/keys"); r.Status != http.StatusNotFound {
			t.Fatalf("removed member still in: %d", r.Status)
		}
	})
}

// Every dashboard route with another workspace's ids answers 404, like ids that do not exist.
func TestDashboardIsolationMatrix(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		wsA := d.CreateWorkspace(t, "A")
		wsB := d.Admin().Post(t, "/internal/v1/workspaces", map[string]string{"name": "B", "ownerEmail": "b@example.com"}).
			Expect(t, http.StatusCreated).JSON(t)["id"].(string)
		keyB, secretB := d.CreateKey(t, wsB, "read:courses")
		p := d.signedIn(t, wsA)
		ownPage := "/dashboard/w/" + wsA + "/keys"
		gets := []string{"/", "/keys", "/keys/" + keyB + "/revoke", "/webhooks", "/members", "/members/remove?email=b@example.com", "/audit"}
		for _, path := range gets {
			p.Get(t, "/dashboard/w/"+wsB+path).Expect(t, http.StatusNotFound)
		}
		p.Get(t, "/dashboard/w/"+wsA+"/keys/"+keyB+"/revoke").Expect(t, http.StatusNotFound)
		posts := map[string]url.Values{
			"/dashboard/w/" + wsB + "/keys":                     {"name": {"x"}, "scopes": {"read:courses"}},
			"/dashboard/w/" + wsB + "/keys/" + keyB + "/revoke": nil,
			"/dashboard/w/" + wsA + "/keys/" + keyB + "/revoke": nil,
			"/dashboard/w/" + wsB + "/members":                  {"email": {"x@example.com"}, "role": {"owner"}},
			"/dashboard/w/" + wsB + "/members/remove":           {"email": {"b@example.com"}},
			"/dashboard/w/" + wsA + "/members/remove":           {"email": {"b@example.com"}},
		}
		for path, form := range posts {
			p.Get(t, ownPage)
			p.Post(t, path, form).Expect(t, http.StatusNotFound)
		}
		d.API(secretB).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
		if diff := cmp.Diff([]string{"key.created"}, d.auditActions(t, wsB)); diff != "" {
			t.Fatalf("B's audit log changed (-want +got):\n%s", diff)
		}
	})
}

func TestAuditEntriesCommitAndRollBackWithTheirChange(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var tx platform.Transactor
		var m members.Application
		env := testenv.Start(t, dbURL, fx.Populate(&tx, &m))
		d := dashEnv{Env: env, Members: m}
		ws := d.CreateWorkspace(t, "Audit")
		// The operator API's change and its entry commit together, naming the operator.
		keyID, _ := d.CreateKey(t, ws, "read:courses")
		var who, what, target string
		if err := d.DB.Reader.QueryRow(d.DB.Rebind(`SELECT actor, action, target FROM audit_log WHERE workspace_id = ?`), ws).Scan(&who, &what, &target); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"operator API", "key.created", keyID}, []string{who, what, target}); diff != "" {
			t.Fatalf("entry: actor, action, target (-want +got):\n%s", diff)
		}
		// Webhook endpoint changes by an operator are recorded too.
		hook, _ := d.CreateWebhook(t, ws, "https://receiver.example.com/hooks", "order.paid")
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks/"+hook+"/disable", nil).Expect(t, http.StatusOK)
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks/"+hook+"/enable", nil).Expect(t, http.StatusOK)
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks/"+hook+"/rotate-secret", nil).Expect(t, http.StatusOK)
		want := "key.created webhook.created webhook.disabled webhook.enabled webhook.secret_rotated"
		if acts := strings.Join(d.auditActions(t, ws), " "); acts != want {
			t.Fatalf("audit log %q, want %q", acts, want)
		}
		// A change rolled back takes its entry with it.
		ctx := platform.WithActor(context.Background(), platform.Actor{Email: "owner@example.com"})
		_ = tx.WithinTx(ctx, func(ctx context.Context) error {
			if _, err := m.Commands.Invite.Handle(ctx, membercmd.Invite{WorkspaceID: ws, Email: "later@example.com", Role: "developer"}); err != nil {
				t.Fatalf("invite: %v", err)
			}
			if n := len(d.auditActionsIn(t, ctx, ws)); n != 6 {
				t.Fatalf("inside the transaction: %d entries", n)
			}
			return errRollback
		})
		if acts := d.auditActions(t, ws); len(acts) != 5 {
			t.Fatalf("after rollback: %v", acts)
		}
		list, _ := m.Queries.ListMembers.Handle(context.Background(), ws)
		if len(list) != 1 {
			t.Fatalf("the invitation survived its rollback: %v", list)
		}
	})
}

var errRollback = &rollbackError{}

type rollbackError struct{}

func (*rollbackError) Error() string { return "roll back" }

func (d dashEnv) auditActionsIn(t *testing.T, ctx context.Context, ws string) []string {
	t.Helper()
	var out []string
	q := d.DB.Read(ctx)
	if err := q.SelectContext(ctx, &out, d.DB.Rebind(`SELECT action FROM audit_log WHERE workspace_id = ?`), ws); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDashboardSignInStateIsPruned(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var store *sqlmembers.Store
		env := testenv.Start(t, dbURL, fx.Populate(&store))
		d := dashEnv{Env: env}
		ws := d.CreateWorkspace(t, "Prune")
		p := d.Person()
		p.Get(t, "/dashboard/sign-in")
		p.Post(t, "/dashboard/sign-in", url.Values{"email": {"owner@example.com"}}).Expect(t, http.StatusOK)
		p.SignIn(t, d.MailedLinks(t, "owner@example.com")[0]).Expect(t, http.StatusSeeOther)
		count := func() (n int) {
			for _, table := range []string{"sign_in_requests", "sign_in_outbox", "sign_in_links", "dashboard_sessions"} {
				var c int
				if err := d.DB.Reader.Get(&c, "SELECT COUNT(*) FROM "+table); err != nil {
					t.Fatal(err)
				}
				n += c
			}
			return n
		}
		sessions := sqlmembers.Sessions{Store: store}
		if _, err := sessions.Prune(context.Background(), d.Clock.Now()); err != nil || count() != 4 {
			t.Fatalf("fresh state pruned: %v, %d rows left", err, count())
		}
		d.Clock.Advance(31 * 24 * time.Hour)
		if _, err := sessions.Prune(context.Background(), d.Clock.Now()); err != nil || count() != 0 {
			t.Fatalf("old state kept: %v, %d rows left", err, count())
		}
		_ = ws
	})
}

func TestDashboardAuditLogPagesNewestFirst(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Pages")
		// 30 keys created and revoked: 60 entries, under the ceiling of 50 active keys.
		for i := 0; i < 30; i++ {
			d.Clock.Advance(time.Second)
			id, _ := d.CreateKey(t, ws, "read:courses")
			d.Clock.Advance(time.Second)
			d.Admin().Do(t, http.MethodDelete, "/internal/v1/workspaces/"+ws+"/keys/"+id, nil).Expect(t, http.StatusOK)
		}
		p := d.signedIn(t, ws)
		first := body(p.Get(t, "/dashboard/w/"+ws+"/audit").Expect(t, http.StatusOK))
		next := regexpFind(t, `href="(/dashboard/w/[^"]+/audit\?before=[^"]+)"`, first)
		second := body(p.Get(t, strings.ReplaceAll(next, "&amp;", "&")).Expect(t, http.StatusOK))
		rows := func(page string) []string {
			return regexpAll(page, `<td[^>]*><code>([a-z_.]+)</code></td><td[^>]*>([^<]*)</td>`)
		}
		a, b := rows(first), rows(second)
		// 30 key.created, 30 key.revoked, one session.started and one sign_in_link.issued: 62 entries.
		if len(a) != 50 || len(b) != 12 || strings.Contains(second, "Older entries") {
			t.Fatalf("pages of %d and %d entries", len(a), len(b))
		}
		seen := map[string]bool{}
		for _, r := range append(a, b...) {
			if seen[r] {
				t.Fatalf("entry %s on both pages", r)
			}
			seen[r] = true
		}
		if !strings.Contains(a[0], "session.started") {
			t.Fatalf("newest entry first: %v", a[:2])
		}
	})
}

func TestDashboardWorkspaceSwitcher(t *testing.T) {
	d := startDashboard(t, testenv.NewSQLiteURL(t), "")
	wsA := d.CreateWorkspace(t, "Alpha")
	p := d.signedIn(t, wsA)
	// With one workspace, /dashboard/ goes straight to it.
	if r := p.Get(t, "/dashboard/"); r.Header.Get("Location") != "/dashboard/w/"+wsA+"/" {
		t.Fatalf("one workspace: %d %s", r.Status, r.Header.Get("Location"))
	}
	wsB := d.CreateWorkspace(t, "Beta")
	page := body(p.Get(t, "/dashboard/").Expect(t, http.StatusOK))
	if !strings.Contains(page, `href="/dashboard/w/`+wsA+`/">Alpha</a>`) || !strings.Contains(page, `href="/dashboard/w/`+wsB+`/">Beta</a>`) {
		t.Fatalf("switcher: %s", page)
	}
	if !strings.Contains(body(p.Get(t, "/dashboard/w/"+wsB+"/").Expect(t, http.StatusOK)), "Switch workspace") {
		t.Fatal("no way back to the switcher")
	}
}
