package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// eventIDs returns the distinct envelope ids a receiver got and how many requests.
func eventIDs(t *testing.T, rc *testenv.Receiver) (map[string]bool, int) {
	t.Helper()
	got := rc.Got()
	ids := map[string]bool{}
	for _, r := range got {
		if r.EventID == "" {
			t.Fatalf("body %q is no event envelope", r.Body)
		}
		ids[r.EventID] = true
	}
	return ids, len(got)
}

// The whole path in the background, as serve runs it: operator write, outbox, router,
// fan-out, dispatcher loop, receiver; with the commit-to-receiver latency.
func TestWebhookEndToEndInTheBackground(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL, fx.Decorate(func(c compose.Config) compose.Config { c.WebhookAllowPrivate = true; return c }))
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		_, secret := env.CreateWebhook(t, ws, rc.URL, "student.created")
		const n = 50
		var latencies []time.Duration
		for i := 0; i < n; i++ {
			start := time.Now()
			env.CreateStudent(t, ws, fmt.Sprintf("s%d@example.com", i))
			deadline := time.Now().Add(10 * time.Second)
			for len(rc.Got()) < i+1 {
				if time.Now().After(deadline) {
					t.Fatalf("event %d not delivered within 10 s", i)
				}
				time.Sleep(200 * time.Microsecond)
			}
			latencies = append(latencies, rc.Got()[i].At.Sub(start))
		}
		ids, total := eventIDs(t, rc)
		if len(ids) != n || total != n {
			t.Fatalf("%d requests for %d events, want %d", total, len(ids), n)
		}
		for _, r := range rc.Got() {
			if _, ok := testenv.VerifySVC(r, secret); !ok {
				t.Fatal("signature does not verify")
			}
		}
		sort.Slice(latencies, func(i, j int) bool { return latencies[i] < latencies[j] })
		t.Logf("write-to-receiver latency over %d events: p50 %s, p90 %s, max %s", n, latencies[n/2], latencies[n*9/10], latencies[n-1])
	})
}

// postStudent creates a student through the operator API of the instance at adminAddr;
// a failure is reported on t and returns false.
func postStudent(t *testing.T, client *http.Client, adminAddr, token, workspaceID, email string) bool {
	raw, _ := json.Marshal(map[string]string{"email": email})
	req, _ := http.NewRequest(http.MethodPost, "http://"+adminAddr+"/internal/v1/workspaces/"+workspaceID+"/students", bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		t.Errorf("post student: %v", err)
		return false
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("post student: status %d", resp.StatusCode)
		return false
	}
	return true
}

// kill -9 during 1,000 deliveries, restart: every event arrives (duplicates allowed).
func TestWebhookDeliveriesSurviveKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
		vars := append(os.Environ(),
			"CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL,
			"CREATORAPI_HTTP_ADDR="+apiAddr, "CREATORAPI_ADMIN_ADDR="+adminAddr,
			"CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789", "CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true",
			"CREATORAPI_WEBHOOK_RETRY_SCHEDULE=1s,2s,5s", "CREATORAPI_LOG_LEVEL=warn",
		)
		cli := binaryCLI(t, bin, vars)
		rc := testenv.NewReceiver(t)
		// The first 100 deliveries are answered at once; after them the receiver stalls
		// (each request waits 2 s) until the kill, so the kill always lands with most
		// deliveries still to make, however fast the pipeline has become.
		rc.SetReply(func(n int, _ *http.Request) testenv.Reply {
			if n > 100 {
				return testenv.Reply{Status: 200, Delay: 2 * time.Second}
			}
			return testenv.Reply{Status: 200, Delay: 2 * time.Millisecond}
		})
		var ws struct{ ID string }
		mustJSON(t, cli("workspace", "create", "--name", "Crash", "--owner-email", "owner@example.com"), &ws)
		var whk struct {
			ID, URL, Status, SigningSecret string
			Events                         []string
		}
		mustJSON(t, cli("webhook", "create", "--workspace", ws.ID, "--url", rc.URL, "--events", "student.created"), &whk)
		if whk.Status != "enabled" || len(whk.SigningSecret) < 40 || len(whk.Events) != 1 {
			t.Fatalf("webhook create printed %+v", whk)
		}
		var disabled struct{ Status string }
		mustJSON(t, cli("webhook", "disable", "--workspace", ws.ID, whk.ID), &disabled)
		mustJSON(t, cli("webhook", "enable", "--workspace", ws.ID, whk.ID), &disabled)
		var list struct{ Data []struct{ ID, Status string } }
		mustJSON(t, cli("webhook", "list", "--workspace", ws.ID), &list)
		if disabled.Status != "enabled" || len(list.Data) != 1 || list.Data[0].ID != whk.ID {
			t.Fatalf("webhook enable/list: %+v %+v", disabled, list)
		}

		start := func() (*exec.Cmd, *bytes.Buffer) {
			cmd := exec.Command(bin, "serve")
			cmd.Env = vars
			logs := &bytes.Buffer{}
			cmd.Stderr = logs
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitHealthy(t, "http://"+apiAddr+"/healthz", logs)
			return cmd, logs
		}
		server, _ := start()
		const total = 1000
		var posted atomic.Int64
		var wg sync.WaitGroup
		for w := 0; w < 8; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for i := w; i < total; i += 8 {
					if !postStudent(t, http.DefaultClient, adminAddr, "e2e-token-0123456789abcdef0123456789", ws.ID, fmt.Sprintf("s%04d@example.com", i)) {
						return
					}
					posted.Add(1)
				}
			}(w)
		}
		wg.Wait()
		// Kill as soon as a part has arrived, while the rest is being delivered.
		deadline := time.Now().Add(30 * time.Second)
		for len(rc.Got()) < 100 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if err := server.Process.Kill(); err != nil { // SIGKILL: no draining
			t.Fatal(err)
		}
		_ = server.Wait()
		atKill, _ := eventIDs(t, rc)
		if len(atKill) >= total {
			t.Fatalf("all %d events arrived before the kill; the test proves nothing", total)
		}

		rc.SetReply(func(int, *http.Request) testenv.Reply { return testenv.Reply{Status: 200, Delay: 2 * time.Millisecond} })
		server, logs := start()
		t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
		deadline = time.Now().Add(90 * time.Second)
		for {
			ids, requests := eventIDs(t, rc)
			if len(ids) == total {
				t.Logf("%d events, %d requests (%d duplicates); %d had arrived at the kill", total, requests, requests-total, len(atKill))
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d events arrived after the restart\n%s", len(ids), total, logs.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}
