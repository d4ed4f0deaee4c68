package tests

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The "done when": an owner finds out why an endpoint stopped receiving events,
// fixes it and recovers the missed deliveries from the dashboard alone. One story on one
// service: each step is a subtest that needs the ones before it, so the story stops at the
// first step that fails.
func TestDashboardOwnerFindsWhyFixesAndRecovers(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var m members.Application
		w := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) {
			c.WebhookRetrySchedule = []time.Duration{time.Minute}
			c.WebhookDisableAfter = time.Hour
			c.PublicURL = "https://dash.example.com"
		}, fx.Populate(&m))
		d := dashEnv{Env: w.Env, Members: m}
		ws := d.CreateWorkspace(t, "Hooks")
		p := d.signedIn(t, ws)
		rc := testenv.NewReceiver(t)
		rc.SetReply(func(int, *http.Request) testenv.Reply {
			return testenv.Reply{Status: http.StatusInternalServerError, Body: "database is down"}
		})
		id, _ := addEndpoint(t, p, ws, rc.URL+"/hook", "student.created")
		base := "/dashboard/w/" + ws + "/webhooks/" + id
		deliveryIDs := func(t *testing.T, status string) []string {
			t.Helper()
			return regexpAll(body(p.Get(t, base+"/deliveries?status="+status).Expect(t, http.StatusOK)), `<code class="small">(evd_[a-z0-9]+)</code>`)
		}
		since := testenv.Epoch.Add(-time.Minute).Format("2006-01-02T15:04")
		var failed []string // the failed deliveries' ids, oldest first as listed

		steps := []struct {
			name string
			run  func(t *testing.T)
		}{
			{"failing deliveries are shown with their retry", func(t *testing.T) {
				for i := 0; i < 3; i++ {
					d.CreateStudent(t, ws, fmt.Sprintf("s%d@example.com", i))
				}
				d.WaitDeliveries(t, 3)
				w.RunDue(t)
				log := body(p.Get(t, base+"/deliveries?status=failing").Expect(t, http.StatusOK))
				retry := d.Clock.Now().Add(time.Minute).UTC().Format("2006-01-02 15:04:05")
				for _, want := range []string{"retry at " + retry, "HTTP 500"} {
					if !strings.Contains(log, want) {
						t.Fatalf("failing deliveries lack %q: %s", want, log)
					}
				}
				if n := strings.Count(log, "Failing"); n != 3 {
					t.Fatalf("%d failing deliveries shown, want 3: %s", n, log)
				}
			}},
			{"the list says why the endpoint stopped", func(t *testing.T) {
				// The last retry fails too, past the hour: failed for good, endpoint disabled.
				d.Clock.Advance(61 * time.Minute)
				w.RunDue(t)
				list := body(p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK))
				for _, want := range []string{"Disabled automatically",
					"every delivery attempt failed since " + testenv.Epoch.Format("2006-01-02 15:04:05"),
					"3 deliveries, 0% succeeded"} {
					if !strings.Contains(list, want) {
						t.Fatalf("the webhooks list lacks %q: %s", want, list)
					}
				}
			}},
			{"the notice mail links to the delivery log", func(t *testing.T) {
				waitFor(t, func() bool {
					return mailContains(t, d.Config.DataDir, "https://dash.example.com/dashboard/w/"+ws+"/webhooks/"+id+"/deliveries")
				})
			}},
			{"the failed deliveries show their attempts and the response", func(t *testing.T) {
				failed = deliveryIDs(t, "failed")
				if len(failed) != 3 {
					t.Fatalf("%d failed deliveries listed, want 3", len(failed))
				}
				if ok := deliveryIDs(t, "succeeded"); len(ok) != 0 {
					t.Fatalf("%d succeeded listed, want none", len(ok))
				}
				detail := body(p.Get(t, base+"/deliveries/"+failed[0]).Expect(t, http.StatusOK))
				for _, want := range []string{"Attempt 1", "Attempt 2", "HTTP 500", "database is down", "X-Svc-Signature", "webhook-timestamp", "&#34;type&#34;:&#34;student.created&#34;", "Next attempt</dt><dd>none"} {
					if !strings.Contains(detail, want) {
						t.Fatalf("delivery page lacks %q: %s", want, detail)
					}
				}
			}},
			{"recovering a disabled endpoint is refused with a clear message", func(t *testing.T) {
				p.Get(t, base+"/deliveries").Expect(t, http.StatusOK)
				r := p.Post(t, base+"/recover", url.Values{"since": {since}})
				if r.Status != http.StatusUnprocessableEntity || !strings.Contains(body(r), "enable it first") {
					t.Fatalf("recover while disabled: %d %s", r.Status, r.Body)
				}
			}},
			{"fixed, enabled and recovered: all three arrive", func(t *testing.T) {
				rc.Always(http.StatusOK)
				p.Get(t, base).Expect(t, http.StatusOK)
				p.Post(t, base+"/enable", nil).Expect(t, http.StatusSeeOther)
				p.Get(t, base+"/deliveries").Expect(t, http.StatusOK)
				r := p.Post(t, base+"/recover", url.Values{"since": {since}})
				if r.Status != http.StatusSeeOther || !strings.Contains(r.Header.Get("Location"), "recovered=3") {
					t.Fatalf("recover: %d %s", r.Status, r.Header.Get("Location"))
				}
				before := len(rc.Got())
				w.RunDue(t)
				if got := len(rc.Got()) - before; got != 3 {
					t.Fatalf("recovered %d deliveries, want 3", got)
				}
				if ok := deliveryIDs(t, "succeeded"); len(ok) != 3 {
					t.Fatalf("%d succeeded after recovery, want 3", len(ok))
				}
			}},
			{"a resend sends the same delivery again", func(t *testing.T) {
				p.Get(t, base+"/deliveries/"+failed[0]).Expect(t, http.StatusOK)
				r := p.Post(t, base+"/deliveries/"+failed[0]+"/resend", nil)
				if r.Status != http.StatusSeeOther {
					t.Fatalf("resend: %d %s", r.Status, r.Body)
				}
				w.RunDue(t)
				got := rc.Got()
				if last := got[len(got)-1]; last.Header.Get("X-SVC-Delivery") != failed[0] {
					t.Fatalf("resent delivery id %q, want %s", last.Header.Get("X-SVC-Delivery"), failed[0])
				}
			}},
			{"the audit log holds each fix", func(t *testing.T) {
				want := []string{"webhook.enabled", "webhook.deliveries_recovered", "webhook.delivery_resent"}
				if acts := d.auditActions(t, ws); !containsAll(acts, want...) {
					t.Fatalf("audit %v lacks one of %v", acts, want)
				}
			}},
		}
		for _, s := range steps {
			if !t.Run(s.name, s.run) {
				return
			}
		}
	})
}

func mailContains(t *testing.T, dataDir, s string) bool {
	files, _ := filepath.Glob(filepath.Join(dataDir, "mail", "*.eml"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ReplaceAll(string(b), "=\r\n", ""), s) {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met after 20 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
