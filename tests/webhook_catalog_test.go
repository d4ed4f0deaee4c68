package tests

import (
	"bytes"
	"encoding/json"
	"html"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every catalogue example has the JSON shape of the data its type's real producer sends:
// the same keys at every level, so a receiver built on the examples reads real events.
func TestWebhookCatalogueExamplesMatchRealEvents(t *testing.T) {
	env := testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), nil)
	ws := env.CreateWorkspace(t, "Catalogue")
	produceAllTypes(t, env.Env, ws)
	real := map[string]json.RawMessage{}
	for _, ev := range publicOutbox(t, env.Env) {
		real[string(ev.Type)] = ev.Data
	}
	if len(catalog.Entries) != len(events.WebhookTypes()) {
		t.Fatalf("%d catalogue entries, want %d", len(catalog.Entries), len(events.WebhookTypes()))
	}
	// The operational entries follow, in order; their examples are held to real events by
	// TestWebhookOperationalEventsFireOnceAndNeverToTheEndpointTheyDescribe.
	for i, typ := range events.OperationalTypes {
		if e := catalog.Entries[len(events.PublicTypes)+i]; e.Type != string(typ) || e.Cause == "" || e.When == "" {
			t.Fatalf("operational entry %d: %+v", i, e)
		}
	}
	for i, typ := range events.PublicTypes {
		e := catalog.Entries[i]
		if e.Type != string(typ) || e.Cause == "" || e.When == "" {
			t.Fatalf("entry %d: %+v", i, e)
		}
		got, ok := real[e.Type]
		if !ok {
			t.Fatalf("no real %s event produced", e.Type)
		}
		var a, b any
		if err := json.Unmarshal(e.Data, &a); err != nil {
			t.Fatalf("%s example: %v", e.Type, err)
		}
		_ = json.Unmarshal(got, &b)
		if diff := shapeDiff("data", a, b); diff != "" {
			t.Errorf("%s: example differs from the real event: %s", e.Type, diff)
		}
	}
}

// shapeDiff compares the keys of two JSON values, recursively (first array elements).
func shapeDiff(path string, example, real any) string {
	if strings.HasSuffix(path, ".metadata") { // free-form: the keys are the integrator's
		return ""
	}
	switch r := real.(type) {
	case map[string]any:
		x, ok := example.(map[string]any)
		if !ok {
			return path + ": not an object in the example"
		}
		var ek, rk []string
		for k := range x {
			ek = append(ek, k)
		}
		for k := range r {
			rk = append(rk, k)
		}
		sort.Strings(ek)
		sort.Strings(rk)
		if strings.Join(ek, ",") != strings.Join(rk, ",") {
			return path + ": keys " + strings.Join(ek, ",") + " vs real " + strings.Join(rk, ",")
		}
		for k := range r {
			if d := shapeDiff(path+"."+k, x[k], r[k]); d != "" {
				return d
			}
		}
	case []any:
		x, ok := example.([]any)
		if ok && len(x) > 0 && len(r) > 0 {
			return shapeDiff(path+"[0]", x[0], r[0])
		}
	}
	return ""
}

// snippetRunner is a command that runs one verification snippet, or "" when its tool is
// missing (loud skip locally, failure under CI).
type snippetRunner struct {
	name, tool string
	cmd        func(dir string) *exec.Cmd
}

func TestWebhookVerificationSnippetsAcceptARealDelivery(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "ports", "http", "dashboard", "snippets")
	copyFile := func(from, to string) {
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	copyFile("verify.go.txt", "gosnippet/main.go")
	copyFile("verify.py", "verify.py")
	copyFile("verify.mjs", "verify.mjs")
	if err := os.WriteFile(filepath.Join(dir, "gosnippet", "go.mod"), []byte("module snippet\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	goBin := filepath.Join(dir, "verify-go")
	build := exec.Command("go", "build", "-o", goBin, ".")
	build.Dir = filepath.Join(dir, "gosnippet")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the Go snippet: %v\n%s", err, out)
	}

	// A real delivery, signed by the service at the real time (snippets refuse old ones).
	env := testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), nil)
	env.Clock.Set(time.Now())
	ws := env.CreateWorkspace(t, "Snippets")
	rc := testenv.NewReceiver(t)
	_, secret := env.CreateWebhook(t, ws, rc.URL+"/hook", "student.created")
	env.CreateStudent(t, ws, "ada@example.com")
	env.WaitDeliveries(t, 1)
	env.RunDue(t)
	got := rc.Got()
	if len(got) != 1 {
		t.Fatalf("receiver got %d requests", len(got))
	}
	delivery := got[0]

	runners := []snippetRunner{
		{"go", "go", func(string) *exec.Cmd { return exec.Command(goBin) }},
		{"python", "python3", func(d string) *exec.Cmd { return exec.Command("python3", filepath.Join(d, "verify.py")) }},
		{"node", "node", func(d string) *exec.Cmd { return exec.Command("node", filepath.Join(d, "verify.mjs")) }},
	}
	for _, r := range runners {
		t.Run(r.name, func(t *testing.T) {
			if _, err := exec.LookPath(r.tool); err != nil {
				testenv.SkipSuite(t, "Webhook catalogue "+r.name+" snippet", r.tool+" is not installed", "install "+r.tool)
			}
			run := func(body []byte, header, key string) (string, error) {
				c := r.cmd(dir)
				c.Stdin = bytes.NewReader(body)
				c.Env = append(os.Environ(), "WEBHOOK_SECRET="+key, "X_SVC_SIGNATURE="+header)
				out, err := c.CombinedOutput()
				return strings.TrimSpace(string(out)), err
			}
			sig := delivery.Header.Get("X-SVC-Signature")
			if out, err := run(delivery.Body, sig, secret); err != nil || out != "valid" {
				t.Fatalf("real delivery refused: %v %q", err, out)
			}
			tampered := bytes.Replace(delivery.Body, []byte("ada@"), []byte("eve@"), 1)
			if out, err := run(tampered, sig, secret); err == nil || out != "invalid" {
				t.Fatalf("tampered body accepted: %v %q", err, out)
			}
			if out, err := run(delivery.Body, sig, secret+"x"); err == nil || out != "invalid" {
				t.Fatalf("wrong secret accepted: %v %q", err, out)
			}
			old := "t=" + strings.TrimPrefix(strings.Split(sig, ",")[0], "t=")
			stale := strings.Replace(sig, old, "t=1000", 1)
			if out, err := run(delivery.Body, stale, secret); err == nil || out != "invalid" {
				t.Fatalf("stale timestamp accepted: %v %q", err, out)
			}
		})
	}
}

func TestDashboardEventCataloguePage(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Catalogue")
		p := d.dash.signedIn(t, ws)
		page := html.UnescapeString(body(p.Get(t, "/dashboard/w/"+ws+"/webhooks/events").Expect(t, http.StatusOK)))
		for _, e := range catalog.Entries {
			var compact bytes.Buffer
			if err := json.Compact(&compact, e.Data); err != nil {
				t.Fatal(err)
			}
			var shown bytes.Buffer
			start := strings.Index(page, `id="`+e.Type+`"`)
			if start < 0 || !strings.Contains(page[start:], e.Cause) {
				t.Fatalf("%s missing or without its cause", e.Type)
			}
			// The example envelope, in a field its Copy button copies.
			open := `<textarea id="example-` + e.Type + `"`
			at := strings.Index(page[start:], open)
			if at < 0 {
				t.Fatalf("%s: no example envelope to copy", e.Type)
			}
			pre := page[start+at:]
			pre = pre[strings.Index(pre, ">")+1:]
			pre = pre[:strings.Index(pre, "</textarea>")]
			if !strings.Contains(page[start+at:], `data-copy="example-`+e.Type+`"`) {
				t.Fatalf("%s: no copy button", e.Type)
			}
			var env struct{ Data json.RawMessage }
			if err := json.Unmarshal([]byte(pre), &env); err != nil {
				t.Fatalf("%s example is not JSON: %v", e.Type, err)
			}
			_ = json.Compact(&shown, env.Data)
			if shown.String() != compact.String() {
				t.Fatalf("%s example shown differs from the one the test event sends", e.Type)
			}
		}
		for _, snippet := range []string{"func verify(secret, header string", "def verify(secret: str", "export function verify(secret"} {
			if !strings.Contains(page, snippet) {
				t.Fatalf("snippet %q missing", snippet)
			}
		}
	})
}
