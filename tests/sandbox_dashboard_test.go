package tests

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/domain/workspaces"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The keys page's test-data switch: the form makes an svc_test_ key of the sandbox, which
// only ?mode=test lists, and which can be revoked there.
func TestDashboardKeysTestDataSwitch(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Keys")
		p := d.signedIn(t, ws)
		keysPath := "/dashboard/w/" + ws + "/keys"
		if !strings.Contains(body(p.Get(t, keysPath).Expect(t, http.StatusOK)), "View test data") {
			t.Fatal("the keys page has no test-data switch")
		}
		r := p.Post(t, keysPath, url.Values{"name": {"Dev"}, "scopes": {"read:courses"}, "mode": {"test"}}).Expect(t, http.StatusCreated)
		secret := regexpFind(t, `value="(svc_test_[A-Za-z0-9]+)"`, body(r))
		var page struct{ Data []sandboxItem }
		d.API(secret).Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) == 0 || *page.Data[0].Livemode {
			t.Fatalf("the test key does not see the seeded sandbox: %+v", page.Data)
		}

		hint := secret[:21] + "…"
		if strings.Contains(body(p.Get(t, keysPath).Expect(t, http.StatusOK)), secret[:21]) {
			t.Fatal("the live keys page lists the test key")
		}
		test := body(p.Get(t, keysPath+"?mode=test").Expect(t, http.StatusOK))
		if !strings.Contains(test, hint) || !strings.Contains(test, "View live keys") {
			t.Fatalf("the test keys page lacks %s: %s", hint, test)
		}
		keyID := regexpFind(t, `/keys/(key_[a-z0-9]+)/revoke\?mode=test`, test)
		p.Get(t, keysPath+"/"+keyID+"/revoke").Expect(t, http.StatusNotFound) // not a live key
		confirm := body(p.Get(t, keysPath+"/"+keyID+"/revoke?mode=test").Expect(t, http.StatusOK))
		if !strings.Contains(confirm, `name="mode" value="test"`) {
			t.Fatalf("the confirmation form loses the mode: %s", confirm)
		}
		p.Post(t, keysPath+"/"+keyID+"/revoke", url.Values{"mode": {"test"}}).Expect(t, http.StatusSeeOther)
		d.API(secret).Get(t, "/api/v1/courses").ExpectError(t, http.StatusUnauthorized, "unauthorized")
	})
}

// The webhooks pages' and delivery log's test-data switch: an endpoint added under it lands
// in the sandbox, only the test pages list it and its deliveries, every link, form and
// redirect keeps mode=test, and an id of the other mode is a 404.
func TestDashboardWebhooksTestDataSwitch(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var m members.Application
		w := testenv.StartWebhooks(t, dbURL, nil, fx.Populate(&m))
		d := dashEnv{Env: w.Env, Members: m}
		ws := d.CreateWorkspace(t, "Hooks")
		sb := workspaces.SandboxID(ws)
		p := d.signedIn(t, ws)
		hooks := "/dashboard/w/" + ws + "/webhooks"
		rc := testenv.NewReceiver(t)
		liveID, _ := d.CreateWebhook(t, ws, rc.URL+"/live", "student.created")

		live := body(p.Get(t, hooks).Expect(t, http.StatusOK))
		if !strings.Contains(live, `href="`+hooks+`?mode=test">View test data</a>`) {
			t.Fatalf("the webhooks list has no test-data switch: %s", live)
		}
		r := p.Post(t, hooks, url.Values{"url": {rc.URL + "/sandbox"}, "events": {"student.created"}, "mode": {"test"}}).Expect(t, http.StatusCreated)
		testID := regexpFind(t, `/webhooks/(whk_[a-z0-9]+)\?mode=test">Done`, body(r))

		// It is the sandbox's (opened by the form), not the live workspace's.
		var list struct{ Data []map[string]any }
		d.Admin().Get(t, "/internal/v1/workspaces/"+sb+"/webhooks").Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 || list.Data[0]["id"] != testID {
			t.Fatalf("the sandbox's endpoints: %v, want %s", list.Data, testID)
		}
		if live := body(p.Get(t, hooks).Expect(t, http.StatusOK)); strings.Contains(live, testID) || !strings.Contains(live, liveID) {
			t.Fatalf("the live list shows the test endpoint or lacks the live one: %s", live)
		}
		test := body(p.Get(t, hooks+"?mode=test").Expect(t, http.StatusOK))
		if !strings.Contains(test, hooks+"/"+testID+"?mode=test") || strings.Contains(test, liveID) || !strings.Contains(test, "View live data") ||
			!strings.Contains(test, `name="mode" value="test"`) {
			t.Fatalf("the test list: %s", test)
		}

		// A sandbox event, triggered by the test helper, is in the test log only.
		_, testKey := d.CreateKey(t, sb, "read:courses")
		d.API(testKey).Post(t, "/api/v1/test_helpers/events", map[string]string{"type": "student.created"}).Expect(t, http.StatusCreated)
		d.WaitDeliveries(t, 1)
		w.RunDue(t)
		testLog := body(p.Get(t, hooks+"/"+testID+"/deliveries?mode=test").Expect(t, http.StatusOK))
		delID := regexpFind(t, `/deliveries/(evd_[a-z0-9]+)\?mode=test"`, testLog)
		if !strings.Contains(testLog, "View live data") || !strings.Contains(testLog, `name="mode" value="test"`) {
			t.Fatalf("the test delivery log lacks the switch or the mode in its forms: %s", testLog)
		}
		if liveLog := body(p.Get(t, hooks+"/"+liveID+"/deliveries").Expect(t, http.StatusOK)); strings.Contains(liveLog, delID) || !strings.Contains(liveLog, "View test data") {
			t.Fatalf("the live delivery log shows the sandbox delivery or lacks the switch: %s", liveLog)
		}

		// Endpoint -> delivery -> resend, all in test mode.
		endpoint := body(p.Get(t, hooks+"/"+testID+"?mode=test").Expect(t, http.StatusOK))
		for _, want := range []string{hooks + "?mode=test", hooks + "/" + testID + "/deliveries?mode=test", `name="mode" value="test"`} {
			if !strings.Contains(endpoint, want) {
				t.Fatalf("the test endpoint page lacks %q: %s", want, endpoint)
			}
		}
		delivery := body(p.Get(t, hooks+"/"+testID+"/deliveries/"+delID+"?mode=test").Expect(t, http.StatusOK))
		if !strings.Contains(delivery, `name="mode" value="test"`) || !strings.Contains(delivery, "/deliveries?mode=test") {
			t.Fatalf("the delivery page loses the mode: %s", delivery)
		}
		r = p.Post(t, hooks+"/"+testID+"/deliveries/"+delID+"/resend", url.Values{"mode": {"test"}}).Expect(t, http.StatusSeeOther)
		if want := hooks + "/" + testID + "/deliveries/" + delID + "?notice=resent&mode=test"; r.Header.Get("Location") != want {
			t.Fatalf("resend redirects to %q, want %q", r.Header.Get("Location"), want)
		}
		r = p.Post(t, hooks+"/"+testID+"/disable", url.Values{"mode": {"test"}}).Expect(t, http.StatusSeeOther)
		if !strings.HasSuffix(r.Header.Get("Location"), "?notice=disabled&mode=test") {
			t.Fatalf("disable redirects to %q", r.Header.Get("Location"))
		}

		// Cross-mode ids are 404s, pages and forms alike.
		for _, path := range []string{hooks + "/" + testID, hooks + "/" + testID + "/deliveries", hooks + "/" + testID + "/deliveries/" + delID,
			hooks + "/" + liveID + "?mode=test", hooks + "/" + liveID + "/deliveries?mode=test"} {
			p.Get(t, path).Expect(t, http.StatusNotFound)
		}
		p.Post(t, hooks+"/"+testID+"/deliveries/"+delID+"/resend", url.Values{}).Expect(t, http.StatusNotFound)
		p.Post(t, hooks+"/"+liveID+"/disable", url.Values{"mode": {"test"}}).Expect(t, http.StatusNotFound)
		p.Post(t, hooks+"/"+testID+"/enable", url.Values{}).Expect(t, http.StatusNotFound)
	})
}
