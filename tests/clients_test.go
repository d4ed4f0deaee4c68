package tests

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/events"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// tsClientDir is the TypeScript client package, @creatorapi/client.
const tsClientDir = "../clients/typescript"

// needTSClient skips loudly without Node or `npm ci` in clients/typescript, and fails under CI=true.
func needTSClient(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("node"); err != nil {
		why = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(tsClientDir, "node_modules", ".bin", "tsc")); err != nil {
		why = "clients/typescript/node_modules is missing: run `npm ci` in clients/typescript"
	}
	if why != "" {
		testenv.SkipSuite(t, "TypeScript client (@creatorapi/client)", why, "install Node and run `npm ci` in clients/typescript")
	}
}

// runTS runs a command in the TypeScript client's folder with env added; it returns the
// standard output, or fails the test with everything the command printed.
func runTS(t *testing.T, env []string, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = tsClientDir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s\n%s", name, strings.Join(args, " "), err, out, stderr.String())
	}
	return out
}

// TestTypeScriptClient builds @creatorapi/client (types generated from the document,
// tsc strict), runs its node:test suites (the transport's chores, both webhook schemes
// against a delivery signed by the service's signer, and the client against a running
// service on each database), then the acceptance sync through a lossy network.
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Node; skipped with -short")
	}
	needTSClient(t)
	runTS(t, nil, "npm", "run", "--silent", "build")
	fixture := signedDeliveryFixture(t)
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		env, baseURL := startServing(t, databaseURL)
		ws := env.CreateWorkspace(t, "ts client")
		_, key := env.CreateKey(t, ws, testenv.AllScopes()...)
		out := runTS(t, []string{"CREATORAPI_BASE_URL=" + baseURL, "CREATORAPI_API_KEY=" + key, "CREATORAPI_WEBHOOK_FIXTURE=" + fixture},
			"node", "--test", "--test-reporter=tap", "dist/test/")
		t.Logf("node --test:\n%s", tail(out, 1500))
		if !bytes.Contains(out, []byte("# fail 0")) || !bytes.Contains(out, []byte("# skipped 0")) {
			t.Fatalf("the TypeScript suites did not all pass:\n%s", out)
		}
	})
	t.Run("lossy sync", func(t *testing.T) {
		testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
			syncThroughLossyNetwork(t, databaseURL, func(t *testing.T, proxyURL, key, contactsFile string) syncRun {
				out := runTS(t, []string{"CREATORAPI_BASE_URL=" + proxyURL, "CREATORAPI_API_KEY=" + key, "CREATORAPI_CONTACTS=" + contactsFile},
					"node", "dist/tools/sync-run.js")
				var run syncRun
				if err := json.Unmarshal(out, &run); err != nil {
					t.Fatalf("sync-run output %q: %v", out, err)
				}
				return run
			})
		})
	})
}

// syncRun is what one sync of the contacts did, as its client saw it.
type syncRun struct {
	MS    int64 `json:"ms"`
	Tries []struct {
		Key    string `json:"key"`
		Status int    `json:"status"`
		Error  string `json:"error"`
	} `json:"tries"`
	Counts  map[string]int `json:"counts"`
	Results int            `json:"results"`
}

// syncThroughLossyNetwork is the acceptance test of issue 34: 300 CRM contacts, 100 of
// them students the workspace already has, synced by a client through a proxy that loses
// 40 % of the requests (both kinds), with a key of the default limits (60/min, 1,000/day).
// It ends with one student per contact, every field applied, one event per change, 3
// batches of 100 each under one Idempotency-Key, and under 10 requests of the day's budget.
func syncThroughLossyNetwork(t *testing.T, databaseURL string, sync func(t *testing.T, proxyURL, key, contactsFile string) syncRun) {
	env, baseURL := startServing(t, databaseURL)
	ws := env.CreateWorkspace(t, "crm sync")
	contacts := crmContacts(300)
	for _, c := range contacts[:100] {
		env.CreateStudent(t, ws, string(*c.Email))
	}
	_, syncKey := env.CreateKey(t, ws, "read:students", "write:students")
	_, readKey := env.CreateKey(t, ws, "read:students")
	raw, err := json.Marshal(contacts)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "contacts.json")
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	proxy, proxyURL := newLossyProxy(t, baseURL, 0.4, 24) // seed 24: 8 tries, 2 lost on the way in, 3 answers lost
	run := sync(t, proxyURL, syncKey, file)

	used := dailyUsed(t, baseURL, syncKey)
	t.Logf("sync of %d contacts: %d tries, %d requests of the day's budget, %d ms; proxy: %s; results %v",
		len(contacts), len(run.Tries), used, run.MS, proxy, run.Counts)
	if run.Results != 300 || run.Counts["created"] != 200 || run.Counts["updated"] != 100 {
		t.Fatalf("results %d %v, want 200 created and 100 updated", run.Results, run.Counts)
	}
	keys := map[string]int{}
	for _, try := range run.Tries {
		keys[try.Key]++
	}
	if len(keys) != 3 || keys[""] != 0 {
		t.Fatalf("tries by Idempotency-Key %v: want 3 batches, each with one key over its retries", keys)
	}
	if proxy.lostBefore == 0 || proxy.lostAfter == 0 || len(run.Tries) == 3 {
		t.Fatalf("the proxy lost nothing of one kind (%s): the test proves nothing", proxy)
	}
	if used >= 10 {
		t.Fatalf("the sync used %d requests of the day's budget, want under 10", used)
	}
	if forwarded := proxy.lostAfter + proxy.forwardedOK; used != forwarded {
		t.Fatalf("the service counted %d requests, the proxy forwarded %d", used, forwarded)
	}
	checkSynced(t, baseURL, readKey, contacts)
	env.WaitForConsumers(t)
	if c, u := len(env.OutboxEventsOfType(t, events.StudentCreated)), len(env.OutboxEventsOfType(t, events.StudentUpdated)); c != 300 || u != 100 {
		t.Fatalf("%d student.created (100 fixtures + 200 synced) and %d student.updated, want 300 and 100: a retry applied twice", c, u)
	}
}

// signedDeliveryFixture writes a delivery signed by the service's own signer (both
// schemes) for the TypeScript verifier's cross-check, and returns its path.
func signedDeliveryFixture(t *testing.T) string {
	t.Helper()
	secret, err := domainwebhooks.GenerateSecret(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte(`{"id":"evt_fixture","type":"order.paid","created_at":"2026-11-21T10:00:00Z","workspace_id":"org_fixture","data":{"id":"ord_1"}}`)
	now := time.Now().Unix()
	h := webhooks.Headers(webhooks.Message{URL: "https://receiver.example/hook", DeliveryID: "dlv_1", EventID: "evt_fixture", EventType: "order.paid", Body: body, Secrets: []domainwebhooks.Secret{secret}, Timestamp: now})
	headers := map[string]string{}
	for k, v := range h { // as sent: Headers sets the Standard Webhooks names in lower case
		headers[k] = strings.Join(v, ", ")
	}
	raw, err := json.Marshal(map[string]any{"secret": secret.String(), "headers": headers, "body": string(body), "now": now})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "delivery.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
