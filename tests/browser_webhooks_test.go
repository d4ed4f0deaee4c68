package tests

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// waitUntil polls cond every 100 ms for up to 30 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// publicPost calls the public API with a key, as an integration would.
func (b *browserSite) publicPost(secret, path, body string) int {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+secret)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// reloadUntil reloads url until the XPath matches (the log is not live-updated).
func (b *browserSite) reloadUntil(url, xpath string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n []byte
		b.run(chromedp.Navigate(url), chromedp.WaitReady("body", chromedp.ByQuery),
			chromedp.Evaluate(`String(document.evaluate('count(`+xpath+`)', document, null, XPathResult.NUMBER_TYPE, null).numberValue)`, &n))
		if string(n) != `"0"` {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("%s never showed %s", url, xpath)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func TestBrowserDashboardWebhooks(t *testing.T) {
	testenv.Parallel(t)
	b := startBrowserSite(t, func(c *compose.Config) {
		c.WebhookAllowPrivate = true
		c.WebhookRetrySchedule = []time.Duration{2 * time.Second, time.Hour}
	})
	b.shots = testenv.ArtifactDir(t, "dashboard-webhooks")
	rc := testenv.NewReceiver(t)
	ws := b.operator(http.MethodPost, "/workspaces", `{"name":"Pixel Academy","ownerEmail":"owner@example.com"}`)["id"].(string)
	key := b.operator(http.MethodPost, "/workspaces/"+ws+"/keys", `{"name":"CRM sync","scopes":["write:students","read:courses"]}`)["secret"].(string)
	b.signInByMail("owner@example.com", false)

	// Add an endpoint pointing at the receiver.
	b.run(chromedp.Click(`//nav//a[text()="Webhooks"]`), chromedp.WaitVisible(`//h1[text()="Webhooks"]`),
		chromedp.SendKeys(`#url`, rc.URL+"/hooks", chromedp.ByQuery),
		chromedp.Click(`//label[normalize-space()="student.created"]/input`),
		chromedp.Click(`//button[text()="Add endpoint"]`),
		chromedp.WaitVisible(`#secret`, chromedp.ByQuery))
	var oldSecret string
	b.run(chromedp.Value(`#secret`, &oldSecret, chromedp.ByQuery))
	b.shot("webhook-added")
	b.run(chromedp.Click(`//a[starts-with(text(),"Done")]`), chromedp.WaitVisible(`//h2[text()="Send test event"]`))
	var endpointURL string
	b.run(chromedp.Location(&endpointURL))
	logURL := endpointURL + "/deliveries"

	// A real event through the public API appears in the log with its attempt.
	if s := b.publicPost(key, "/api/v1/students", `{"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace"}`); s != http.StatusCreated {
		t.Fatalf("create student: %d", s)
	}
	waitUntil(t, "the first delivery", func() bool { return len(rc.Got()) == 1 })
	if _, ok := testenv.VerifySVC(rc.Got()[0], oldSecret); !ok {
		t.Fatal("first delivery not signed with the secret shown")
	}
	b.reloadUntil(logURL, `//td//span[text()="Succeeded"]`)
	b.run(chromedp.Click(`//tbody/tr[1]/td[1]/a`), chromedp.WaitVisible(`//h3[contains(text(),"Attempt 1")]`))
	if h := b.text("main"); !strings.Contains(h, "HTTP 200") || !strings.Contains(h, "ada@example.com") {
		t.Fatalf("delivery page: %s", h)
	}
	b.shot("delivery-succeeded")

	// The receiver fails: the retry is scheduled and shown.
	rc.Always(http.StatusServiceUnavailable)
	b.publicPost(key, "/api/v1/students", `{"email":"grace@example.com","firstName":"Grace","lastName":"Hopper"}`)
	waitUntil(t, "the failing attempt", func() bool { return len(rc.Got()) >= 2 })
	b.reloadUntil(logURL+"?status=failing", `//span[starts-with(text(),"retry at")]`)
	b.shot("delivery-log-failing")
	waitUntil(t, "the retry", func() bool { return len(rc.Got()) >= 3 })

	// Resend once the receiver works again.
	rc.Always(http.StatusOK)
	b.reloadUntil(logURL+"?status=failing", `//tbody/tr`)
	b.run(chromedp.Click(`//tbody/tr[1]/td[1]/a`), chromedp.WaitVisible(`//button[text()="Resend"]`))
	b.shot("delivery-failing")
	before := len(rc.Got())
	b.run(chromedp.Click(`//button[text()="Resend"]`), chromedp.WaitVisible(`//p[contains(@class,"notice")]`))
	waitUntil(t, "the resend", func() bool { return len(rc.Got()) > before })
	b.reloadUntil(logURL+"?status=succeeded", `//tbody/tr[2]`)
	b.shot("delivery-log")

	// Rotate: the receiver verifies both signatures.
	b.run(chromedp.Navigate(endpointURL), chromedp.Click(`//button[text()="Rotate secret"]`), chromedp.WaitVisible(`#secret`, chromedp.ByQuery))
	var newSecret string
	b.run(chromedp.Value(`#secret`, &newSecret, chromedp.ByQuery))
	b.shot("secret-rotated")
	if newSecret == oldSecret || !strings.Contains(b.text("main"), "also carry a signature made with the old secret") {
		t.Fatal("rotation page")
	}
	before = len(rc.Got())
	b.publicPost(key, "/api/v1/students", `{"email":"alan@example.com","firstName":"Alan","lastName":"Turing"}`)
	waitUntil(t, "a delivery after rotation", func() bool { return len(rc.Got()) > before })
	last := rc.Got()[len(rc.Got())-1]
	if n, ok := testenv.VerifySVC(last, newSecret); !ok || n != 2 {
		t.Fatalf("new secret: %d signatures, ok %v", n, ok)
	}
	if _, ok := testenv.VerifySVC(last, oldSecret); !ok {
		t.Fatal("old secret no longer verifies during the overlap")
	}

	// Send a test event.
	before = len(rc.Got())
	b.run(chromedp.Navigate(endpointURL), chromedp.SetValue(`#type`, "order.paid", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Send test event"]`), chromedp.WaitVisible(`//h1[starts-with(text(),"Delivery")]`))
	waitUntil(t, "the test event", func() bool { return len(rc.Got()) > before })
	test := rc.Got()[len(rc.Got())-1]
	if test.Header.Get("X-SVC-Test") != "true" || !bytes.Contains(test.Body, []byte(`"id":"evt_test_`)) {
		t.Fatalf("test event: %v %s", test.Header, test.Body)
	}
	b.reloadUntil(logURL+"?type=order.paid", `//td//span[text()="Succeeded"]`)
	b.shot("test-event")

	// The overview draws its charts.
	course := b.operator(http.MethodPost, "/workspaces/"+ws+"/courses", `{"title":"Watercolour basics"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/modules", `{"title":"Start"}`)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/publish", ``)
	student := b.operator(http.MethodPost, "/workspaces/"+ws+"/students", `{"email":"buyer@example.com"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/orders", `{"studentId":"`+student+`","currency":"eur","items":[{"courseId":"`+course+`","amount":4900}]}`)
	b.reloadUntil(b.base+"/dashboard/w/"+ws+"/", `//h3[starts-with(text(),"Net revenue per day, EUR")]`)
	var bars []byte
	b.run(chromedp.Evaluate(`String(document.querySelectorAll("svg.chart rect.bar").length)`, &bars))
	if string(bars) == `"0"` {
		t.Fatal("no chart bars rendered")
	}
	// API requests per key appear once the counts are flushed (every 10 s).
	b.reloadUntil(b.base+"/dashboard/w/"+ws+"/", `//h3[starts-with(text(),"CRM sync")]`)
	b.shot("overview-charts")
}
