package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every page of the dashboard, its sign-in pages and the event catalogue, at two phone
// widths, a tablet's and a desktop's, signed in as an owner and as a developer, with data
// present: axe-core finds no WCAG 2.0/2.1/2.2 A or AA violation, and the page itself never
// scrolls sideways (document.documentElement.scrollWidth <= window.innerWidth at every
// width). A full-page screenshot of each is left in tests/artifacts/dashboard-a11y/sqlite/
// for a person to look at; the PostgreSQL run renders the same templates and shoots only a
// page that failed a check (the screenshots' PNG encoding was half the tour's CPU).

// screen is a viewport the pages are checked at.
type screen struct {
	width, height int
	phone         bool
}

// Two phones, a tablet (the sidebar beside stacked tables) and a desktop.
var a11yScreens = []screen{{360, 780, true}, {390, 844, true}, {800, 1000, false}, {1280, 860, false}}

// axeTags are the rule sets held: WCAG 2.0, 2.1 and 2.2, levels A and AA.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"}

// axeScript is axe-core's browser build, pinned in tests/axe (npm ci there; .ci/run does).
func axeScript(t *testing.T) string {
	t.Helper()
	path := filepath.Join("axe", "node_modules", "axe-core", "axe.min.js") // go test runs in tests/
	src, err := os.ReadFile(path)
	if err != nil {
		testenv.SkipSuite(t, "axe-core", path+" is missing", "cd tests/axe && npm ci")
	}
	return string(src)
}

// a11yPage is one page of the tour: open leaves the browser on it.
type a11yPage struct {
	name string
	open func(b *browserSite)
}

func (b *browserSite) visit(path string) func(*browserSite) {
	return func(b *browserSite) {
		b.run(chromedp.Navigate(b.base+path), chromedp.WaitReady("main", chromedp.ByQuery))
	}
}

// axeViolation is what the test reports of one axe-core violation.
type axeViolation struct {
	ID      string `json:"id"`
	Impact  string `json:"impact"`
	Help    string `json:"help"`
	Targets []struct {
		Target  []any  `json:"target"`
		Summary string `json:"failureSummary"`
	} `json:"nodes"`
}

// checkPage runs axe-core on the current page, measures its width and saves a full-page
// screenshot (every page in a gallery run, else only a failing one); problems are reported
// with t.Errorf so that one run lists them all.
func (b *browserSite) checkPage(axe string, s screen, role, name string) {
	b.t.Helper()
	problem := false
	errorf := func(format string, args ...any) {
		b.t.Helper()
		problem = true
		b.t.Errorf(format, args...)
	}
	// What a person can open is checked open: example payloads, request headers.
	b.run(chromedp.Evaluate(`document.querySelectorAll("details").forEach(d => { d.open = true })`, nil))
	var widths struct{ Scroll, Inner int }
	b.run(chromedp.Evaluate(`({Scroll: document.documentElement.scrollWidth, Inner: window.innerWidth})`, &widths))
	// A phone's browser widens its layout viewport to fit a page that overflows, so the
	// window must also still be the screen's width.
	if widths.Scroll > widths.Inner || widths.Inner != s.width {
		errorf("%s %s at %d px: the page is %d px wide (window %d px)", role, name, s.width, widths.Scroll, widths.Inner)
	}
	// Stacked rows name each cell's column: a cell with content and no data-label (the
	// templates' or, from its column heading, app.js's) would be a bare value on a phone,
	// unless its row is headed by a <th> (name and value, like the request headers).
	var unlabelled []string
	b.run(chromedp.Evaluate(`[...document.querySelectorAll("main td")].filter(td => td.textContent.trim() &&
		!td.hasAttribute("data-label") && !td.parentElement.querySelector("th")).map(td => td.textContent.trim().slice(0, 40))`, &unlabelled))
	if len(unlabelled) > 0 {
		errorf("%s %s: table cells without data-label: %q", role, name, unlabelled)
	}
	var loaded bool
	b.run(chromedp.Evaluate(`typeof window.axe === "object"`, &loaded))
	if !loaded {
		b.run(chromedp.Evaluate(axe, nil))
	}
	tags, _ := json.Marshal(axeTags)
	var violations []axeViolation
	b.run(chromedp.Evaluate(`axe.run(document, {runOnly: {type: "tag", values: `+string(tags)+`}, resultTypes: ["violations"]}).then(r => r.violations)`,
		&violations, func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return p.WithAwaitPromise(true) }))
	for _, v := range violations {
		var where []string
		for _, n := range v.Targets {
			where = append(where, fmt.Sprintf("%v: %s", n.Target, strings.ReplaceAll(n.Summary, "\n", " ")))
		}
		errorf("%s %s at %d px: axe %s (%s): %s\n    %s", role, name, s.width, v.ID, v.Impact, v.Help, strings.Join(where, "\n    "))
	}
	if b.gallery || problem {
		var png []byte
		b.run(chromedp.FullScreenshot(&png, 100))
		path := filepath.Join(b.shots, fmt.Sprintf("%s-%s-%d.png", role, name, s.width))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	b.t.Logf("%-9s %-22s %4d px: page %4d px wide, %d axe violations", role, name, s.width, widths.Scroll, len(violations))
}

// tour opens every page once and checks it at every screen: the emulated screen changes
// under the loaded page (the layout follows, as on a rotated phone), so a page is not
// fetched again, its forms not sent again and axe-core not injected again per width.
// Each page is opened at the first screen's size, a phone's.
func (b *browserSite) tour(axe, role string, pages []a11yPage) {
	b.t.Helper()
	for _, p := range pages {
		first := a11yScreens[0]
		b.run(emulation.SetDeviceMetricsOverride(int64(first.width), int64(first.height), 1, first.phone))
		p.open(b)
		for _, s := range a11yScreens {
			b.run(emulation.SetDeviceMetricsOverride(int64(s.width), int64(s.height), 1, s.phone))
			b.checkPage(axe, s, role, p.name)
		}
	}
	b.run(emulation.ClearDeviceMetricsOverride())
}

// The tour is the package's longest test (about a minute a database), so each database's
// run is a top-level test: EachDatabase's runs are subtests, and go test starts parallel
// subtests only after every waiting top-level test, which made the tour the run's last
// minute.

func TestBrowserDashboardOnPhonesIsAccessibleOnSQLite(t *testing.T) {
	testenv.Parallel(t)
	phonesTour(t, testenv.SQLite, testenv.NewSQLiteURL(t), testenv.GalleryWanted())
}

func TestBrowserDashboardOnPhonesIsAccessibleOnPostgres(t *testing.T) {
	testenv.Parallel(t)
	phonesTour(t, testenv.Postgres, testenv.NewPostgresURL(t), false)
}

// phonesTour checks every dashboard page, signed out and as each role, at every screen;
// gallery keeps a screenshot of each.
func phonesTour(t *testing.T, database, databaseURL string, gallery bool) {
	axe := axeScript(t)
	b := startBrowserSiteOn(t, databaseURL, 12*time.Minute, func(c *compose.Config) {
		c.WebhookAllowPrivate = true
		c.WebhookRetrySchedule = nil // a failed attempt fails the delivery for good
	})
	b.shots = testenv.ArtifactDir(t, filepath.Join("dashboard-a11y", database))
	b.gallery = gallery
	d := seedA11yData(t, b)

	// Signed out: the sign-in form, its answer, a sign-in link and an invitation.
	var ownerLink string
	anonymous := []a11yPage{
		{"sign-in", b.visit("/dashboard/sign-in")},
		{"check-your-email", func(b *browserSite) {
			b.run(chromedp.Navigate(b.base+"/dashboard/sign-in"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
				chromedp.SendKeys(`#email`, "someone@example.com", chromedp.ByQuery), chromedp.Submit(`#email`, chromedp.ByQuery),
				chromedp.WaitVisible(`//h1[text()="Check your e-mail"]`))
		}},
		{"sign-in-link", func(b *browserSite) {
			b.run(chromedp.Navigate(ownerLink), chromedp.WaitVisible(`//button[text()="Sign in"]`))
		}},
		{"invitation", func(b *browserSite) {
			b.run(chromedp.Navigate(d.invitation), chromedp.WaitVisible(`//button[text()="Accept invitation"]`))
		}},
	}
	before := len(testenv.MailedLinksIn(t, b.dataDir, "owner@example.com"))
	b.run(chromedp.Navigate(b.base+"/dashboard/sign-in"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
		chromedp.SendKeys(`#email`, "owner@example.com", chromedp.ByQuery), chromedp.Submit(`#email`, chromedp.ByQuery),
		chromedp.WaitVisible(`//h1[text()="Check your e-mail"]`))
	links := testenv.WaitMailedLinks(t, b.dataDir, "owner@example.com", before+1)
	ownerLink = links[len(links)-1]
	b.tour(axe, "signed-out", anonymous)

	// The owner: every page, the ones answering a form included.
	b.run(chromedp.Navigate(ownerLink), chromedp.Click(`//button[text()="Sign in"]`), chromedp.WaitVisible(`//h1[text()="Overview"]`))
	b.tour(axe, "owner", append(memberPages(b, d),
		a11yPage{"members", b.visit(d.base + "/members")},
		a11yPage{"member-remove", b.visit(d.base + "/members/remove?email=" + url.QueryEscape("pending@example.com"))},
		a11yPage{"audit-log", b.visit(d.base + "/audit")},
		a11yPage{"workspaces", b.visit("/dashboard/")},
	))
	b.run(chromedp.Click(`//button[text()="Sign out"]`), chromedp.WaitVisible(`//p[text()="You are signed out."]`))

	// The developer: the same pages, and the owners' pages say "Not allowed".
	b.run(chromedp.Navigate(d.invitation), chromedp.Click(`//button[text()="Accept invitation"]`), chromedp.WaitVisible(`//h1[text()="Overview"]`))
	b.tour(axe, "developer", append(memberPages(b, d),
		a11yPage{"members-not-allowed", b.visit(d.base + "/members")},
	))
}

// memberPages are the pages every member sees.
func memberPages(b *browserSite, d a11yData) []a11yPage {
	return []a11yPage{
		{"overview", b.visit(d.base + "/")},
		{"api-keys", b.visit(d.base + "/keys")},
		{"key-created", func(b *browserSite) {
			b.run(chromedp.Navigate(b.base+d.base+"/keys"), chromedp.WaitVisible(`#name`, chromedp.ByQuery),
				chromedp.SendKeys(`#name`, "Phone check", chromedp.ByQuery),
				chromedp.Click(`//label[normalize-space()="read:courses"]/input`),
				chromedp.Click(`//button[text()="Create key"]`), chromedp.WaitVisible(`#secret`, chromedp.ByQuery))
		}},
		{"key-revoke", b.visit(d.base + "/keys/" + d.keyID + "/revoke")},
		{"webhooks", b.visit(d.base + "/webhooks")},
		{"webhook-added", func(b *browserSite) {
			b.run(chromedp.Navigate(b.base+d.base+"/webhooks"), chromedp.WaitVisible(`#url`, chromedp.ByQuery),
				chromedp.SendKeys(`#url`, "https://hooks.example.com/creatorapi/phone", chromedp.ByQuery),
				chromedp.Click(`//label[normalize-space()="order.paid"]/input`),
				chromedp.Click(`//button[text()="Add endpoint"]`), chromedp.WaitVisible(`#secret`, chromedp.ByQuery))
		}},
		{"endpoint", b.visit(d.base + "/webhooks/" + d.failingEndpoint)},
		{"delivery-log", b.visit(d.base + "/webhooks/" + d.failingEndpoint + "/deliveries")},
		{"delivery-failed", b.visit(d.base + "/webhooks/" + d.failingEndpoint + "/deliveries/" + d.failedDelivery)},
		{"delivery-succeeded", b.visit(d.base + "/webhooks/" + d.workingEndpoint + "/deliveries/" + d.succeededDelivery)},
		{"event-catalogue", b.visit(d.base + "/webhooks/events")},
		{"webhooks-test-data", b.visit(d.base + "/webhooks?mode=test")},
		{"endpoint-test-data", b.visit(d.base + "/webhooks/" + d.sandboxEndpoint + "?mode=test")},
		{"delivery-log-test-data", b.visit(d.base + "/webhooks/" + d.sandboxEndpoint + "/deliveries?mode=test")},
	}
}

// a11yData is what seedA11yData made.
type a11yData struct {
	base                              string // /dashboard/w/<workspace>
	keyID                             string
	workingEndpoint, failingEndpoint  string
	succeededDelivery, failedDelivery string
	sandboxEndpoint                   string // an endpoint of the sandbox, for the test-data switch
	invitation                        string // the developer's invitation link, not yet accepted
}

// seedA11yData fills a workspace the way a busy one looks: keys with many scopes, two
// endpoints (one answering 200, one 500) with deliveries, analytics, members (a pending
// invitation too) and audit rows; its owner also owns a second workspace (the switcher).
func seedA11yData(t *testing.T, b *browserSite) a11yData {
	t.Helper()
	rc := testenv.NewReceiver(t)
	rc.SetReply(func(_ int, r *http.Request) testenv.Reply {
		if strings.Contains(r.URL.Path, "broken") {
			return testenv.Reply{Status: http.StatusInternalServerError, Body: `{"error":"database unavailable, try again later"}`}
		}
		return testenv.Reply{Status: http.StatusOK, Body: "ok"}
	})
	ws := b.operator(http.MethodPost, "/workspaces", `{"name":"Pixel Academy","ownerEmail":"owner@example.com"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces", `{"name":"Watercolour School","ownerEmail":"owner@example.com"}`)
	d := a11yData{base: "/dashboard/w/" + ws}
	d.keyID = b.operator(http.MethodPost, "/workspaces/"+ws+"/keys",
		`{"name":"CRM sync","scopes":["read:courses","read:students","write:students","read:orders","write:enrollments","read:analytics"]}`)["id"].(string)
	key := b.operator(http.MethodPost, "/workspaces/"+ws+"/keys", `{"name":"Zapier","scopes":["read:courses","write:students"]}`)["secret"].(string)
	d.workingEndpoint = b.operator(http.MethodPost, "/workspaces/"+ws+"/webhooks",
		`{"url":"`+rc.URL+`/hooks/creatorapi/students-and-orders","events":["student.created","order.paid","order.refunded"]}`)["id"].(string)
	d.failingEndpoint = b.operator(http.MethodPost, "/workspaces/"+ws+"/webhooks",
		`{"url":"`+rc.URL+`/hooks/broken","events":["student.created"]}`)["id"].(string)
	sb := b.operator(http.MethodPost, "/workspaces/"+ws+"/sandbox", `{}`)["id"].(string)
	d.sandboxEndpoint = b.operator(http.MethodPost, "/workspaces/"+sb+"/webhooks",
		`{"url":"https://hooks.example.com/creatorapi/sandbox","events":["order.paid"]}`)["id"].(string)

	// Deliveries: a student through the public API reaches both endpoints.
	if s := b.publicPost(key, "/api/v1/students", `{"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace"}`); s != http.StatusCreated {
		t.Fatalf("create student: %d", s)
	}
	// Analytics for the overview's charts: a course and a paid order.
	course := b.operator(http.MethodPost, "/workspaces/"+ws+"/courses", `{"title":"Watercolour basics"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/modules", `{"title":"Start"}`)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/publish", ``)
	student := b.operator(http.MethodPost, "/workspaces/"+ws+"/students", `{"email":"buyer@example.com"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/orders", `{"studentId":"`+student+`","currency":"eur","items":[{"courseId":"`+course+`","amount":4900}]}`)
	waitUntil(t, "a succeeded and a failed delivery", func() bool {
		d.succeededDelivery = b.deliveryWithStatus(ws, d.workingEndpoint, "succeeded")
		d.failedDelivery = b.deliveryWithStatus(ws, d.failingEndpoint, "failed")
		return d.succeededDelivery != "" && d.failedDelivery != ""
	})

	// People: the owner invites a developer (accepted later) and someone who stays pending.
	b.signInByMail("owner@example.com", false)
	for _, email := range []string{"dev@example.com", "pending@example.com"} {
		b.run(chromedp.Navigate(b.base+d.base+"/members"), chromedp.WaitVisible(`#email`, chromedp.ByQuery),
			chromedp.SendKeys(`#email`, email, chromedp.ByQuery),
			chromedp.SetValue(`#role`, "developer", chromedp.ByQuery),
			chromedp.Click(`//button[text()="Invite"]`),
			chromedp.WaitVisible(`//td[text()="`+email+`"]`))
	}
	// The overview's per-key request chart: the key's requests are flushed every 10 s.
	b.reloadUntil(b.base+d.base+"/", `//h3[starts-with(text(),"Zapier")]`)
	b.run(chromedp.Click(`//button[text()="Sign out"]`), chromedp.WaitVisible(`//p[text()="You are signed out."]`))
	links := testenv.MailedLinksIn(t, b.dataDir, "dev@example.com")
	if len(links) != 1 {
		t.Fatalf("invitation links %v", links)
	}
	d.invitation = links[0]
	return d
}

// deliveryWithStatus is the id of one of the endpoint's deliveries in that status, or "".
func (b *browserSite) deliveryWithStatus(ws, endpoint, status string) string {
	page := b.operator(http.MethodGet, "/workspaces/"+ws+"/webhooks/"+endpoint+"/deliveries", "")
	data, _ := page["data"].([]any)
	for _, row := range data {
		if m, ok := row.(map[string]any); ok && m["status"] == status {
			return m["id"].(string)
		}
	}
	return ""
}
