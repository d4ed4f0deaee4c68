package tests

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// browserSite is the whole service with its listeners (the fx graph serve runs) and a
// headless Chromium pointed at it.
type browserSite struct {
	t        *testing.T
	base     string
	admin    string
	dataDir  string
	ctx      context.Context
	shots    string
	gallery  bool // the phones tour keeps a screenshot of every page, not only of failing ones
	shotSeq  int
	apiToken string
}

func startBrowserSite(t *testing.T, configure ...func(*compose.Config)) *browserSite {
	t.Helper()
	return startBrowserSiteOn(t, testenv.NewSQLiteURL(t), 3*time.Minute, configure...)
}

// startBrowserSiteOn is startBrowserSite on the given database, the browser's work bounded by timeout.
func startBrowserSiteOn(t *testing.T, databaseURL string, timeout time.Duration, configure ...func(*compose.Config)) *browserSite {
	t.Helper()
	chromium := testenv.Browser(t)
	cfg := testenv.Config(t, databaseURL)
	cfg.HTTPAddr, cfg.AdminAddr = testenv.FreeAddr(t), testenv.FreeAddr(t)
	cfg.PublicURL = "http://" + cfg.HTTPAddr
	for _, c := range configure {
		c(&cfg)
	}
	app := fx.New(compose.Service(cfg))
	startCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := app.Start(startCtx); err != nil {
		t.Fatalf("start service: %v", err)
	}
	t.Cleanup(func() {
		stopCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_ = app.Stop(stopCtx)
	})

	// A fresh profile; removed after the browser exits (its helpers may write for a moment
	// after, which t.TempDir's strict cleanup would report as a failure).
	profile, err := os.MkdirTemp("", "creatorapi-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium),
		chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 860),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(func() {
		cancelTimeout()
		cancelCtx()
		cancelAlloc()
		for i := 0; i < 20 && os.RemoveAll(profile) != nil; i++ {
			time.Sleep(100 * time.Millisecond)
		}
	})
	if err := chromedp.Run(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return &browserSite{t: t, base: cfg.PublicURL, admin: "http://" + cfg.AdminAddr, dataDir: cfg.DataDir,
		ctx: ctx, shots: testenv.ArtifactDir(t, "dashboard"), apiToken: cfg.AdminToken}
}

func (b *browserSite) run(actions ...chromedp.Action) {
	b.t.Helper()
	if err := chromedp.Run(b.ctx, actions...); err != nil {
		b.t.Fatalf("browser: %v", err)
	}
}

// shot saves a full-page screenshot of the current page as NN-name.png.
func (b *browserSite) shot(name string) {
	b.t.Helper()
	var png []byte
	b.run(chromedp.FullScreenshot(&png, 100))
	b.shotSeq++
	path := filepath.Join(b.shots, fmt.Sprintf("%02d-%s.png", b.shotSeq, name))
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

func (b *browserSite) text(sel string) string {
	b.t.Helper()
	var s string
	b.run(chromedp.Text(sel, &s, chromedp.ByQuery))
	return s
}

// operator calls the operator API.
func (b *browserSite) operator(method, path, body string) map[string]any {
	b.t.Helper()
	req, _ := http.NewRequest(method, b.admin+"/internal/v1"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+b.apiToken)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = jsonDecode(res.Body, &out)
	return out
}

// apiStatus calls the public API with a plain HTTP client, as an integration would.
func (b *browserSite) apiStatus(secret, path string) int {
	b.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, b.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// signInByMail asks for a link on the sign-in page and opens the one the mail fallback wrote.
func (b *browserSite) signInByMail(email string, shots bool) {
	b.t.Helper()
	before := len(testenv.MailedLinksIn(b.t, b.dataDir, email))
	b.run(chromedp.Navigate(b.base+"/dashboard/"), chromedp.WaitVisible(`#email`, chromedp.ByQuery))
	if shots {
		b.shot("sign-in")
	}
	b.run(chromedp.SendKeys(`#email`, email, chromedp.ByQuery), chromedp.Submit(`#email`, chromedp.ByQuery),
		chromedp.WaitVisible(`//h1[text()="Check your e-mail"]`))
	if shots {
		b.shot("check-your-email")
	}
	links := testenv.WaitMailedLinks(b.t, b.dataDir, email, before+1) // the mailer answers within a second
	if len(links) != before+1 {
		b.t.Fatalf("mailed links for %s: %v", email, links)
	}
	b.run(chromedp.Navigate(links[len(links)-1]), chromedp.WaitVisible(`//button[text()="Sign in"]`))
	if shots {
		b.shot("sign-in-link")
	}
	b.run(chromedp.Click(`//button[text()="Sign in"]`), chromedp.WaitVisible(`//h1[text()="Overview"]`))
}

func TestBrowserDashboardKeysAndMembers(t *testing.T) {
	testenv.Parallel(t)
	b := startBrowserSite(t)
	ws := b.operator(http.MethodPost, "/workspaces", `{"name":"Pixel Academy","ownerEmail":"owner@example.com"}`)["id"].(string)
	course := b.operator(http.MethodPost, "/workspaces/"+ws+"/courses", `{"title":"Watercolour basics"}`)["id"].(string)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/modules", `{"title":"Start"}`)
	b.operator(http.MethodPost, "/workspaces/"+ws+"/courses/"+course+"/publish", ``)

	// Sign in through the link from the mail fallback.
	b.signInByMail("owner@example.com", true)
	b.shot("overview")

	// Create a key with two scopes.
	b.run(chromedp.Click(`//nav//a[text()="API keys"]`), chromedp.WaitVisible(`//h1[text()="API keys"]`))
	b.shot("api-keys-empty")
	b.run(
		chromedp.SendKeys(`#name`, "CRM sync", chromedp.ByQuery),
		chromedp.Click(`//label[normalize-space()="read:courses"]/input`),
		chromedp.Click(`//label[normalize-space()="read:students"]/input`),
		chromedp.Click(`//button[text()="Create key"]`),
		chromedp.WaitVisible(`#secret`, chromedp.ByQuery),
	)
	var secret string
	b.run(chromedp.Value(`#secret`, &secret, chromedp.ByQuery))
	if !strings.HasPrefix(secret, "svc_") {
		t.Fatalf("secret %q", secret)
	}
	b.shot("key-created")
	// The secret works against /api/v1 with a plain HTTP client.
	if s := b.apiStatus(secret, "/api/v1/courses"); s != http.StatusOK {
		t.Fatalf("new key: %d", s)
	}
	// Reload the keys page: the secret is gone.
	b.run(chromedp.Navigate(b.base+"/dashboard/w/"+ws+"/keys"), chromedp.WaitVisible(`//td[text()="CRM sync"]`))
	var html string
	b.run(chromedp.OuterHTML("html", &html, chromedp.ByQuery))
	if strings.Contains(html, secret[4:]) {
		t.Fatal("the keys page shows the secret again")
	}
	if !strings.Contains(html, secret[len(secret)-4:]) {
		t.Fatal("the keys page does not show the last four characters")
	}
	b.shot("api-keys")
	// Revoke, confirm, and the API answers 401.
	b.run(chromedp.Click(`//tr[td[text()="CRM sync"]]//a[text()="Revoke"]`), chromedp.WaitVisible(`//button[text()="Revoke"]`))
	b.shot("revoke-confirm")
	b.run(chromedp.Click(`//button[text()="Revoke"]`), chromedp.WaitVisible(`//p[contains(@class,"notice")]`))
	if s := b.apiStatus(secret, "/api/v1/courses"); s != http.StatusUnauthorized {
		t.Fatalf("revoked key: %d", s)
	}

	// Invite a developer.
	b.run(chromedp.Click(`//nav//a[text()="Members"]`), chromedp.WaitVisible(`//h1[text()="Members"]`),
		chromedp.SendKeys(`#email`, "dev@example.com", chromedp.ByQuery),
		chromedp.SetValue(`#role`, "developer", chromedp.ByQuery),
		chromedp.Click(`//button[text()="Invite"]`),
		chromedp.WaitVisible(`//td[text()="dev@example.com"]`))
	b.shot("members")
	b.run(chromedp.Click(`//nav//a[text()="Audit log"]`), chromedp.WaitVisible(`//h1[text()="Audit log"]`))
	b.shot("audit-log")
	if log := b.text("table"); !strings.Contains(log, "key.revoked") || !strings.Contains(log, "member.invited") {
		t.Fatalf("audit log: %s", log)
	}
	b.run(chromedp.Click(`//button[text()="Sign out"]`), chromedp.WaitVisible(`//p[text()="You are signed out."]`))

	// The developer signs in with the invitation's link and sees no Members page.
	links := testenv.MailedLinksIn(t, b.dataDir, "dev@example.com")
	if len(links) != 1 {
		t.Fatalf("invitation links %v", links)
	}
	b.run(chromedp.Navigate(links[0]), chromedp.Click(`//button[text()="Accept invitation"]`), chromedp.WaitVisible(`//h1[text()="Overview"]`))
	if nav := b.text("nav"); strings.Contains(nav, "Members") || !strings.Contains(nav, "API keys") {
		t.Fatalf("developer navigation: %q", nav)
	}
	b.shot("developer-overview")
	b.run(chromedp.Navigate(b.base+"/dashboard/w/"+ws+"/members"), chromedp.WaitVisible(`//h1[text()="Not allowed"]`))
	b.shot("developer-members-not-allowed")

	// Create a key with the keyboard only: Tab to the name, type, Space on a scope, Tab to the button, Enter.
	b.run(chromedp.Navigate(b.base+"/dashboard/w/"+ws+"/keys"), chromedp.WaitVisible(`#name`, chromedp.ByQuery))
	b.tabUntil(`document.activeElement.id === "name"`)
	b.run(chromedp.KeyEvent("Keyboard key"))
	b.tabUntil(`document.activeElement.value === "read:orders"`)
	b.run(chromedp.KeyEvent(" "))
	b.tabUntil(`document.activeElement.textContent === "Create key"`)
	b.run(chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(`#secret`, chromedp.ByQuery))
	var keyboardSecret string
	b.run(chromedp.Value(`#secret`, &keyboardSecret, chromedp.ByQuery))
	b.shot("key-created-by-keyboard")
	if s := b.apiStatus(keyboardSecret, "/api/v1/orders"); s != http.StatusOK {
		t.Fatalf("keyboard-made key on /orders: %d", s)
	}
	if s := b.apiStatus(keyboardSecret, "/api/v1/courses"); s != http.StatusForbidden {
		t.Fatalf("keyboard-made key on /courses: %d (want only read:orders)", s)
	}
}

// tabUntil presses Tab until the JavaScript condition holds (at most 40 times).
func (b *browserSite) tabUntil(condition string) {
	b.t.Helper()
	for i := 0; i < 40; i++ {
		var ok bool
		b.run(chromedp.Evaluate(condition, &ok))
		if ok {
			return
		}
		b.run(chromedp.KeyEvent(kb.Tab))
	}
	b.t.Fatalf("Tab never reached %s", condition)
}
