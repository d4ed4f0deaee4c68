package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The new user's path from the README, with the built binary: CLI creates a workspace
// and a key, the operator API creates and publishes a course, the public API reads it,
// and a revocation by another process (the CLI) takes effect on the next request.
func TestEndToEndWithTheBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
		env := append(os.Environ(),
			"CREATORAPI_DATA_DIR="+t.TempDir(),
			"CREATORAPI_DATABASE_URL="+dbURL,
			"CREATORAPI_HTTP_ADDR="+apiAddr,
			"CREATORAPI_ADMIN_ADDR="+adminAddr,
			"CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789",
		)
		cli := func(args ...string) []byte {
			t.Helper()
			cmd := exec.Command(bin, args...)
			cmd.Env = env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("creatorapi %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
			}
			return out
		}

		var ws struct{ ID, Name, OwnerEmail string }
		mustJSON(t, cli("workspace", "create", "--name", "E2E Academy", "--owner-email", "owner@example.com"), &ws)
		var key struct {
			ID, Secret string
			Scopes     []string
			PerMinute  int
		}
		mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "integration", "--scopes", "read:courses"), &key)
		if !strings.HasPrefix(ws.ID, "org_") || !strings.HasPrefix(key.Secret, "svc_") || key.PerMinute != 60 || len(key.Scopes) != 1 {
			t.Fatalf("cli output: %+v %+v", ws, key)
		}

		server := exec.Command(bin, "serve")
		server.Env = env
		var logs bytes.Buffer
		server.Stderr = &logs
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })
		waitHealthy(t, "http://"+apiAddr+"/healthz", &logs)

		admin := func(method, path string, body any) *http.Response {
			t.Helper()
			raw, _ := json.Marshal(body)
			req, _ := http.NewRequest(method, "http://"+adminAddr+"/internal/v1"+path, bytes.NewReader(raw))
			req.Header.Set("Authorization", "Bearer e2e-token-0123456789abcdef0123456789")
			req.Header.Set("Content-Type", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		var course struct{ ID string }
		resp := admin(http.MethodPost, "/workspaces/"+ws.ID+"/courses", map[string]string{"title": "Hello World"})
		decodeResp(t, resp, http.StatusCreated, &course)
		decodeResp(t, admin(http.MethodPost, "/workspaces/"+ws.ID+"/courses/"+course.ID+"/publish", nil), http.StatusOK, nil)

		get := func(path string) *http.Response {
			req, _ := http.NewRequest(http.MethodGet, "http://"+apiAddr+path, nil)
			req.Header.Set("Authorization", "Bearer "+key.Secret)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		var list courseList
		decodeResp(t, get("/api/v1/courses"), http.StatusOK, &list)
		if len(list.Data) != 1 || list.Data[0].ID != course.ID || list.Data[0].Slug != "hello-world" {
			t.Fatalf("list %+v", list.Data)
		}

		cli("key", "revoke", "--workspace", ws.ID, key.ID)
		decodeResp(t, get("/api/v1/courses"), http.StatusUnauthorized, nil)

		var keys struct{ Data []struct{ ID, Status string } }
		mustJSON(t, cli("key", "list", "--workspace", ws.ID), &keys)
		if len(keys.Data) != 1 || keys.Data[0].Status != "revoked" {
			t.Fatalf("key list %+v", keys)
		}

		// SIGTERM drains and exits cleanly.
		stopServe(t, server, &logs)
	})
}

// binaryCLI returns a runner of one-shot commands of bin with the environment env: the
// standard output, or the test fails with the standard error.
func binaryCLI(t *testing.T, bin string, env []string) func(args ...string) []byte {
	return func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("creatorapi %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		return out
	}
}

// stopServe sends SIGINT to a `creatorapi serve` and fails unless it drains and exits
// cleanly within 20 s.
func stopServe(t *testing.T, server *exec.Cmd, logs fmt.Stringer) {
	t.Helper()
	_ = server.Process.Signal(os.Interrupt)
	done := make(chan error, 1)
	go func() { done <- server.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve exited with %v\n%s", err, logs.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("serve did not stop on SIGINT")
	}
}

func waitHealthy(t *testing.T, url string, logs *bytes.Buffer) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("service not healthy at %s\n%s", url, logs.String())
}

func decodeResp(t *testing.T, resp *http.Response, status int, v any) {
	t.Helper()
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, raw)
	}
	if v != nil {
		mustJSON(t, raw, v)
	}
}

func mustJSON(t *testing.T, raw []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("not one JSON object on stdout: %v\n%s", err, raw)
	}
}
