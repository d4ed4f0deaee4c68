package tests

import (
	"net/http"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Signed-in pages show personal data (addresses, the audit log, payloads): no cache
// may keep them, the browser's included. The signed-out sign-in page only revalidates.
func TestDashboardSignedInPagesAreNotStored(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startDashboard(t, dbURL, "")
		ws := d.CreateWorkspace(t, "Cache")
		p := d.signedIn(t, ws)
		base := "/dashboard/w/" + ws
		for _, path := range []string{base + "/", base + "/keys", base + "/webhooks", base + "/members", base + "/audit"} {
			r := p.Get(t, path).Expect(t, http.StatusOK)
			if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("%s: Cache-Control %q, want no-store", path, cc)
			}
		}
		r := d.Person().Get(t, "/dashboard/sign-in").Expect(t, http.StatusOK)
		if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Errorf("sign-in page: Cache-Control %q, want no-cache", cc)
		}
	})
}
