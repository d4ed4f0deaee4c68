package tests

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

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
