package tests

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Two `creatorapi serve` processes of the built binary on one PostgreSQL database, each
// leasing blocks of the key's windows: a key of 30 a minute used alternately through
// both gets exactly 30 of 40, X-RateLimit-Remaining is never below the truth and exact
// under 5, and both stop cleanly (handing their blocks back).
func TestTwoBuiltBinariesCountExactly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.Parallel(t)
	bin := testenv.Binary(t)
	dbURL := testenv.NewPostgresURL(t)
	base := append(os.Environ(), "CREATORAPI_DATABASE_URL="+dbURL, "CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789",
		"CREATORAPI_SECRET_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f") // both instances open what the CLI sealed
	cli := binaryCLI(t, bin, append(base, "CREATORAPI_DATA_DIR="+t.TempDir()))
	var ws struct{ ID string }
	mustJSON(t, cli("workspace", "create", "--name", "Two Instances", "--owner-email", "owner@example.com"), &ws)
	var key struct{ Secret string }
	mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "spread", "--scopes", "read:courses", "--per-minute", "30"), &key)

	type instance struct {
		addr   string
		server *exec.Cmd
		logs   *bytes.Buffer
	}
	var instances [2]instance
	testenv.ReserveInstances(t, len(instances)-1)
	for i := range instances {
		addr := testenv.FreeAddr(t)
		server := exec.Command(bin, "serve")
		server.Env = append(base, "CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_HTTP_ADDR="+addr, "CREATORAPI_ADMIN_ADDR="+testenv.FreeAddr(t))
		logs := &bytes.Buffer{}
		server.Stderr = logs
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
		waitHealthy(t, "http://"+addr+"/healthz", logs)
		instances[i] = instance{addr: addr, server: server, logs: logs}
	}

	// All 40 requests in one clock minute (the service's clock is the real one here).
	if now := time.Now(); now.Second() > 45 {
		time.Sleep(now.Truncate(time.Minute).Add(time.Minute).Sub(now))
	}
	admitted := 0
	for i := range 40 {
		req, _ := http.NewRequest(http.MethodGet, "http://"+instances[i%2].addr+"/api/v1/courses", nil)
		req.Header.Set("Authorization", "Bearer "+key.Secret)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		countAdmission(t, i, resp.StatusCode, &admitted)
		remaining, err := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		if err != nil {
			t.Fatalf("request %d: X-RateLimit-Remaining %q", i+1, resp.Header.Get("X-RateLimit-Remaining"))
		}
		if truth := 30 - admitted; remaining < truth || (truth < 5 && remaining != truth) {
			t.Fatalf("request %d (instance %d): X-RateLimit-Remaining %d, truth %d", i+1, i%2, remaining, truth)
		}
	}
	if admitted != 30 {
		t.Fatalf("admitted %d of 40 alternating requests through two processes, want exactly 30", admitted)
	}
	for _, in := range instances {
		stopServe(t, in.server, in.logs)
	}
}
