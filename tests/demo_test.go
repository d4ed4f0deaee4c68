package tests

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/ports/cli/demo"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestDemoSeedsOnceThroughTheApplication(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var s demo.Seeder
		var settings *sqlstore.Settings
		env := testenv.Start(t, dbURL, fx.Populate(&s.Workspaces, &s.Keys, &s.Courses, &s.Students, &s.Enrollments,
			&s.Orders, &s.LiveSessions, &s.Certificates, &settings))
		s.Marker, s.Now = settings, env.Clock.Now

		first, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		again, err := s.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !first.Seeded || again.Seeded || again.WorkspaceID != first.WorkspaceID || again.Key.Secret == first.Key.Secret {
			t.Fatalf("first %+v, again %+v: want one seeding and a new key each run", first.Seeded, again.Seeded)
		}
		if len(first.Key.Scopes) != len(testenv.AllScopes()) {
			t.Fatalf("demo key scopes %v", first.Key.Scopes)
		}

		api := env.API(first.Key.Secret)
		var courses courseList
		api.Get(t, "/api/v1/courses").Expect(t, http.StatusOK).Decode(t, &courses)
		if len(courses.Data) != 3 {
			t.Fatalf("%d published demo courses, want 3", len(courses.Data))
		}
		var page struct{ Data []map[string]any }
		api.Get(t, "/api/v1/students?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 50 {
			t.Fatalf("%d demo students, want 50", len(page.Data))
		}
		api.Get(t, "/api/v1/orders?limit=100").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 36 {
			t.Fatalf("%d demo orders, want 36", len(page.Data))
		}
		var summary struct {
			Revenue []struct{ Currency string }
		}
		env.WaitForConsumers(t) // the summary reads the projection
		api.Get(t, "/api/v1/analytics/summary").Expect(t, http.StatusOK).Decode(t, &summary)
		if len(summary.Revenue) != 2 {
			t.Fatalf("revenue rows %+v, want two currencies", summary.Revenue)
		}
		seen := map[events.Type]bool{}
		for _, ev := range env.OutboxEvents(t) {
			seen[ev.Type] = true
		}
		for _, typ := range events.PublicTypes {
			if !seen[typ] && typ != events.StudentUpdated && typ != events.StudentDeleted {
				t.Errorf("the demo never emits %s", typ)
			}
		}
	})
}

// What `creatorapi demo` prints works as printed: the built binary runs the demo, and
// every command line of its guide runs in order in a shell that has none of the demo's
// settings (another directory, no CREATORAPI_* variables): the public API calls, the
// `webhook create` line (its receiver URL swapped for a test receiver's) and the operator
// calls, whose order.paid and order.refunded reach the receiver, signed with the printed
// secret. The key has the documented limits, and the printed dashboard page exists.
func TestDemoGuideRunsAsPrinted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	bin := testenv.Binary(t)
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
		receiver := testenv.NewReceiver(t)
		demoCmd := exec.Command(bin, "demo")
		demoCmd.Dir = t.TempDir()
		demoCmd.Env = append(os.Environ(), "CREATORAPI_DATA_DIR="+filepath.Join(t.TempDir(), "demo-data"), "CREATORAPI_DATABASE_URL="+dbURL,
			"CREATORAPI_HTTP_ADDR="+apiAddr, "CREATORAPI_ADMIN_ADDR="+adminAddr, "CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true")
		var stdout, logs syncBuffer
		demoCmd.Stdout, demoCmd.Stderr = &stdout, &logs
		if err := demoCmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = demoCmd.Process.Signal(os.Interrupt); _ = demoCmd.Wait() })
		waitHealthy(t, "http://"+apiAddr+"/healthz", &logs.Buffer)
		guide := stdout.String()
		if !strings.Contains(guide, "Rate limits:    60 requests a minute, 1,000 a day") {
			t.Fatalf("the guide does not print the default limits:\n%s", guide)
		}

		script := guideCommands(guide)
		const printedReceiver = "http://127.0.0.1:9000/webhooks"
		if !strings.Contains(script, " webhook create ") || !strings.Contains(script, printedReceiver) || !strings.Contains(script, "/refunds") {
			t.Fatalf("the guide lacks the webhook and operator commands:\n%s", guide)
		}
		script = strings.ReplaceAll(script, printedReceiver, receiver.URL+"/hooks")
		shell := exec.Command("bash", "-c", "set -euo pipefail\n"+script)
		shell.Dir = t.TempDir()
		shell.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		out, err := shell.CombinedOutput()
		if err != nil {
			t.Fatalf("the guide's commands failed: %v\n%s\n--- commands:\n%s\n--- demo log:\n%.3000s", err, out, script, logs.String())
		}

		// The webhook was created with the printed line; its deliveries arrive signed.
		secret := regexp.MustCompile(`"signingSecret":\s*"(whsec_[^"]+)"`).FindSubmatch(out)
		if secret == nil {
			t.Fatalf("no signing secret in the output:\n%s", out)
		}
		deadline := time.Now().Add(30 * time.Second)
		for {
			types := map[string]bool{}
			for _, got := range receiver.Got() {
				if _, ok := testenv.VerifySVC(got, string(secret[1])); !ok {
					t.Fatalf("a delivery fails verification with the printed secret: %s", got.Body)
				}
				types[got.Header.Get("X-SVC-Event")] = true
			}
			if types["order.paid"] && types["order.refunded"] {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("deliveries of %v after the operator calls; want order.paid and order.refunded\n%.3000s", types, logs.String())
			}
			time.Sleep(100 * time.Millisecond)
		}

		// The key's headers say the documented limits.
		key := regexp.MustCompile(`export KEY=(svc_\S+)`).FindStringSubmatch(guide)
		req, _ := http.NewRequest(http.MethodGet, "http://"+apiAddr+"/api/v1/courses?limit=1", nil)
		req.Header.Set("Authorization", "Bearer "+key[1])
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if diff := cmp.Diff([]string{"60", "1000"}, []string{resp.Header.Get("X-RateLimit-Limit"), resp.Header.Get("X-RateLimit-Daily-Limit")}); diff != "" {
			t.Fatalf("demo key limits per minute, per day (-want +got):\n%s", diff)
		}

		// The printed delivery page is the dashboard's (a visitor is sent to sign in).
		page := regexp.MustCompile(`(?m)^    (http://\S+/dashboard/w/org_\S+/webhooks)$`).FindStringSubmatch(guide)
		if page == nil {
			t.Fatalf("no dashboard webhooks page in the guide:\n%s", guide)
		}
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		page[1] = strings.Replace(page[1], "http://localhost:"+listenPort(apiAddr), "http://"+apiAddr, 1)
		resp, err = noRedirect.Get(page[1])
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "sign-in") {
			t.Fatalf("GET %s: %d %s, want a redirect to sign in", page[1], resp.StatusCode, resp.Header.Get("Location"))
		}
	})
}

// guideCommands is the guide's shell: every line indented by exactly two spaces that is
// not a comment, with the lines its trailing backslashes continue.
func guideCommands(guide string) string {
	var b strings.Builder
	continued := false
	for _, line := range strings.Split(guide, "\n") {
		command := strings.HasPrefix(line, "  ") && len(line) > 2 && line[2] != ' ' && !strings.HasPrefix(line, "  #")
		if continued || command {
			b.WriteString(line + "\n")
			continued = strings.HasSuffix(line, "\\")
		}
	}
	return b.String()
}

func listenPort(addr string) string {
	_, port, _ := net.SplitHostPort(addr)
	return port
}

// syncBuffer is a bytes.Buffer a child process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.Buffer.String()
}
