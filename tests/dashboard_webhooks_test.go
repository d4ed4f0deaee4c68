package tests

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// webhookDash is a service with the dispatcher driven by hand and the dashboard.
type webhookDash struct {
	*testenv.WebhookEnv
	dash dashEnv
}

func startWebhookDashboard(t *testing.T, dbURL string) webhookDash {
	t.Helper()
	var m members.Application
	w := testenv.StartWebhooks(t, dbURL, nil, fx.Populate(&m))
	return webhookDash{WebhookEnv: w, dash: dashEnv{Env: w.Env, Members: m}}
}

// addEndpoint submits "Add endpoint" and returns the endpoint's id and the secret shown.
func addEndpoint(t *testing.T, p *testenv.Person, ws, target string, types ...string) (id, secret string) {
	t.Helper()
	p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK)
	r := p.Post(t, "/dashboard/w/"+ws+"/webhooks", url.Values{"url": {target}, "events": types})
	r.Expect(t, http.StatusCreated)
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Fatalf("secret page Cache-Control %q, want no-store", cc)
	}
	secret = shownSecret(t, r)
	id = regexpFind(t, `/webhooks/(whk_[a-z0-9]+)">Done`, body(r))
	return id, secret
}

func TestDashboardWebhooksAddListAndSecretOnce(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Hooks")
		p := d.dash.signedIn(t, ws)

		// The form: one checkbox per type, labelled with its exact name and a description.
		page := body(p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK))
		for _, typ := range events.PublicTypes {
			if !strings.Contains(page, `name="events" value="`+string(typ)+`"> `+string(typ)+`</label> <span class="muted small">`) {
				t.Fatalf("no checkbox for %s", typ)
			}
		}
		if !strings.Contains(page, `<label for="url">URL</label>`) {
			t.Fatal("no URL label")
		}

		// The API's rules, with a clear message, and nothing created.
		r := p.Post(t, "/dashboard/w/"+ws+"/webhooks", url.Values{"url": {"ftp://example.com/x"}, "events": {"order.paid"}})
		r.Expect(t, http.StatusUnprocessableEntity)
		if !strings.Contains(body(r), "url must use https") || !strings.Contains(body(r), `value="order.paid" checked`) {
			t.Fatalf("https rule not shown, or the form lost its input: %s", body(r))
		}
		r = p.Post(t, "/dashboard/w/"+ws+"/webhooks", url.Values{"url": {"https://example.com/x"}})
		r.Expect(t, http.StatusUnprocessableEntity)
		if !strings.Contains(body(r), "choose at least one event type") {
			t.Fatalf("no event type message: %s", body(r))
		}

		rc := testenv.NewReceiver(t)
		id, secret := addEndpoint(t, p, ws, rc.URL+"/hook", "order.paid", "student.created")
		list := body(p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK))
		if strings.Contains(list, secret) {
			t.Fatal("the secret is shown again on the list")
		}
		if !strings.Contains(list, rc.URL+"/hook") || !strings.Contains(list, "Enabled") || !strings.Contains(list, "0 deliveries") {
			t.Fatalf("list lacks the endpoint: %s", list)
		}
		endpoint := body(p.Get(t, "/dashboard/w/"+ws+"/webhooks/"+id).Expect(t, http.StatusOK))
		if strings.Contains(endpoint, secret) {
			t.Fatal("the secret is shown on the endpoint page")
		}

		// A real event reaches the endpoint, signed with the secret shown.
		d.CreateStudent(t, ws, "ada@example.com")
		d.WaitDeliveries(t, 1)
		d.RunDue(t)
		got := rc.Got()
		if len(got) != 1 {
			t.Fatalf("receiver got %d requests", len(got))
		}
		if _, ok := testenv.VerifySVC(got[0], secret); !ok {
			t.Fatal("delivery not signed with the secret shown once")
		}
		list = body(p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK))
		if !strings.Contains(list, "1 deliveries, 100% succeeded") {
			t.Fatalf("24h figures missing: %s", list)
		}
		if acts := d.dash.auditActions(t, ws); !containsAll(acts, "webhook.created") {
			t.Fatalf("audit %v", acts)
		}
	})
}

// shownSecret reads the secret field of a page (HTML-escaped: base64 has + and /).
func shownSecret(t *testing.T, r testenv.Response) string {
	t.Helper()
	return html.UnescapeString(regexpFind(t, `id="secret" type="text" readonly value="(whsec_[^"]+)"`, body(r)))
}

func containsAll(list []string, want ...string) bool {
	have := map[string]bool{}
	for _, s := range list {
		have[s] = true
	}
	for _, w := range want {
		if !have[w] {
			return false
		}
	}
	return true
}

// endpointPage is a signed-in owner on the page of one endpoint (secret shown once) that
// delivers order.paid to a receiver: the start of each endpoint action's test.
type endpointPage struct {
	d           webhookDash
	p           *testenv.Person
	ws, base    string
	rc          *testenv.Receiver
	firstSecret string
}

func openEndpointPage(t *testing.T, dbURL string) endpointPage {
	t.Helper()
	d := startWebhookDashboard(t, dbURL)
	ws := d.CreateWorkspace(t, "Hooks")
	p := d.dash.signedIn(t, ws)
	rc := testenv.NewReceiver(t)
	id, secret := addEndpoint(t, p, ws, rc.URL+"/a", "order.paid")
	return endpointPage{d: d, p: p, ws: ws, base: "/dashboard/w/" + ws + "/webhooks/" + id, rc: rc, firstSecret: secret}
}

// wantAudited fails unless the workspace's audit log holds every action in want.
func (e endpointPage) wantAudited(t *testing.T, want ...string) {
	t.Helper()
	if acts := e.d.dash.auditActions(t, e.ws); !containsAll(acts, want...) {
		t.Fatalf("audit %v, want %v", acts, want)
	}
}

// A change of URL and event types follows the creation rules and shows on the page.
func TestDashboardWebhookEndpointChangeFollowsTheRules(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		e := openEndpointPage(t, dbURL)
		e.p.Get(t, e.base).Expect(t, http.StatusOK)
		e.p.Post(t, e.base, url.Values{"url": {"https://"}, "events": {"order.paid"}}).Expect(t, http.StatusUnprocessableEntity)
		e.p.Get(t, e.base).Expect(t, http.StatusOK)
		r := e.p.Post(t, e.base, url.Values{"url": {e.rc.URL + "/b"}, "events": {"student.created", "order.paid"}})
		if r.Status != http.StatusSeeOther {
			t.Fatalf("update: %d %s", r.Status, r.Body)
		}
		page := body(e.p.Get(t, e.base).Expect(t, http.StatusOK))
		if !strings.Contains(page, e.rc.URL+"/b") || !strings.Contains(page, `value="student.created" checked`) {
			t.Fatalf("change not shown: %s", page)
		}
		e.wantAudited(t, "webhook.created", "webhook.updated")
	})
}

// A disabled endpoint is skipped by the fan-out; enabling it is recorded.
func TestDashboardWebhookDisabledEndpointGetsNothing(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		e := openEndpointPage(t, dbURL)
		e.p.Post(t, e.base+"/disable", nil).Expect(t, http.StatusSeeOther)
		if page := body(e.p.Get(t, e.base).Expect(t, http.StatusOK)); !strings.Contains(page, "Disabled by a person") {
			t.Fatalf("status after disable: %s", page)
		}
		e.d.CreateStudent(t, e.ws, "ada@example.com")
		time.Sleep(200 * time.Millisecond) // the fan-out skips disabled endpoints: nothing to wait for
		e.d.RunDue(t)
		if n := len(e.rc.Got()); n != 0 {
			t.Fatalf("disabled endpoint got %d requests", n)
		}
		e.p.Post(t, e.base+"/enable", nil).Expect(t, http.StatusSeeOther)
		e.wantAudited(t, "webhook.disabled", "webhook.enabled")
	})
}

// "Send test event" reaches this endpoint only, marked as a test, signed, and its
// delivery page says so.
func TestDashboardWebhookTestEventReachesThisEndpointOnly(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		e := openEndpointPage(t, dbURL)
		other := testenv.NewReceiver(t)
		addEndpoint(t, e.p, e.ws, other.URL+"/other", "order.paid")
		e.p.Get(t, e.base).Expect(t, http.StatusOK)
		r := e.p.Post(t, e.base+"/test", url.Values{"type": {"order.paid"}})
		if r.Status != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), e.base+"/deliveries/evd_") {
			t.Fatalf("test event: %d %s", r.Status, r.Header.Get("Location"))
		}
		e.d.RunDue(t)
		got := e.rc.Got()
		if len(got) != 1 || len(other.Got()) != 0 {
			t.Fatalf("test event reached %d/%d requests, want 1 here and 0 elsewhere", len(got), len(other.Got()))
		}
		if got[0].Header.Get("X-SVC-Test") != "true" || !strings.HasPrefix(got[0].Header.Get("webhook-id"), "evt_test_") {
			t.Fatalf("test event not marked: %v", got[0].Header)
		}
		if _, ok := testenv.VerifySVC(got[0], e.firstSecret); !ok {
			t.Fatal("test event not signed")
		}
		if !strings.Contains(string(got[0].Body), `"type":"order.paid"`) || !strings.Contains(string(got[0].Body), `"receipt":{"number":`) {
			t.Fatalf("test event body: %s", got[0].Body)
		}
		deliveryPage := body(e.p.Get(t, r.Header.Get("Location")).Expect(t, http.StatusOK))
		if !strings.Contains(deliveryPage, "test event") || !strings.Contains(deliveryPage, "X-Svc-Test") {
			t.Fatalf("delivery page of the test event: %s", deliveryPage)
		}
		e.wantAudited(t, "webhook.test_sent")
	})
}

// Rotation shows the new secret once; both secrets sign for 24 hours, and the page says
// until when.
func TestDashboardWebhookRotationSignsWithBothSecretsForADay(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		e := openEndpointPage(t, dbURL)
		e.p.Get(t, e.base).Expect(t, http.StatusOK)
		r := e.p.Post(t, e.base+"/rotate", nil)
		r.Expect(t, http.StatusOK)
		if r.Header.Get("Cache-Control") != "no-store" {
			t.Fatal("rotation page is stored")
		}
		newSecret := shownSecret(t, r)
		ends := e.d.Clock.Now().Add(24 * time.Hour).UTC().Format("2006-01-02 15:04:05")
		if newSecret == e.firstSecret || !strings.Contains(body(r), "Until "+ends+" UTC") {
			t.Fatalf("rotation page: %s", body(r))
		}
		if page := body(e.p.Get(t, e.base).Expect(t, http.StatusOK)); !strings.Contains(page, "still signs until "+ends) || strings.Contains(page, newSecret) {
			t.Fatal("endpoint page after rotation")
		}
		e.p.Post(t, e.base+"/test", url.Values{"type": {"order.paid"}}).Expect(t, http.StatusSeeOther)
		e.d.RunDue(t)
		got := e.rc.Got()
		last := got[len(got)-1]
		if n, ok := testenv.VerifySVC(last, newSecret); !ok || n != 2 {
			t.Fatalf("new secret: %d signatures, ok %v", n, ok)
		}
		if _, ok := testenv.VerifySVC(last, e.firstSecret); !ok {
			t.Fatal("old secret no longer signs during the overlap")
		}
		e.wantAudited(t, "webhook.secret_rotated")
	})
}

// Every new webhook route with another workspace's ids answers 404 and changes nothing.
func TestDashboardWebhooksIsolationMatrix(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		wsA := d.CreateWorkspace(t, "A")
		wsB := d.Admin().Post(t, "/internal/v1/workspaces", map[string]string{"name": "B", "ownerEmail": "b@example.com"}).
			Expect(t, http.StatusCreated).JSON(t)["id"].(string)
		rcB := testenv.NewReceiver(t)
		hookB, _ := d.CreateWebhook(t, wsB, rcB.URL+"/b", "student.created")
		d.CreateStudent(t, wsB, "b1@example.com")
		d.WaitDeliveries(t, 1)
		d.RunDue(t)
		delB := d.WebhookDeliveries(t, wsB, hookB)[0].ID
		p := d.dash.signedIn(t, wsA)
		rcA := testenv.NewReceiver(t)
		hookA, _ := addEndpoint(t, p, wsA, rcA.URL+"/a", "student.created")
		auditB := len(d.dash.auditActions(t, wsB))

		for _, ws := range []string{wsA, wsB} {
			for _, path := range []string{"/webhooks/" + hookB, "/webhooks/" + hookB + "/deliveries", "/webhooks/" + hookB + "/deliveries/" + delB,
				"/webhooks/" + hookA + "/deliveries/" + delB} {
				if r := p.Get(t, "/dashboard/w/"+ws+path); r.Status != http.StatusNotFound {
					t.Fatalf("GET %s in %s: %d", path, ws, r.Status)
				}
			}
		}
		for _, path := range []string{"/webhooks", "/webhooks/events"} {
			p.Get(t, "/dashboard/w/"+wsB+path).Expect(t, http.StatusNotFound)
		}
		posts := map[string]url.Values{
			"/webhooks/" + hookB:                                     {"url": {"https://evil.example.com"}, "events": {"order.paid"}},
			"/webhooks/" + hookB + "/disable":                        nil,
			"/webhooks/" + hookB + "/enable":                         nil,
			"/webhooks/" + hookB + "/rotate":                         nil,
			"/webhooks/" + hookB + "/test":                           {"type": {"order.paid"}},
			"/webhooks/" + hookB + "/recover":                        {"since": {"2026-01-01T00:00"}},
			"/webhooks/" + hookB + "/deliveries/" + delB + "/resend": nil,
			"/webhooks/" + hookA + "/deliveries/" + delB + "/resend": nil,
		}
		for path, form := range posts {
			for _, ws := range []string{wsA, wsB} {
				p.Get(t, "/dashboard/w/"+wsA+"/webhooks")
				if r := p.Post(t, "/dashboard/w/"+ws+path, form); r.Status != http.StatusNotFound {
					t.Fatalf("POST %s in %s: %d", path, ws, r.Status)
				}
			}
		}
		p.Get(t, "/dashboard/w/"+wsA+"/webhooks")
		p.Post(t, "/dashboard/w/"+wsB+"/webhooks", url.Values{"url": {"https://x.example.com"}, "events": {"order.paid"}}).Expect(t, http.StatusNotFound)

		d.RunDue(t)
		if n := len(rcB.Got()); n != 1 {
			t.Fatalf("B's receiver got %d requests, want its one delivery", n)
		}
		if n := len(d.dash.auditActions(t, wsB)); n != auditB {
			t.Fatalf("B's audit log changed: %d entries, was %d", n, auditB)
		}
		list := d.WebhookDeliveries(t, wsB, hookB)
		if len(list) != 1 || list[0].Attempts != 1 {
			t.Fatalf("B's log changed: %+v", list)
		}
	})
}
