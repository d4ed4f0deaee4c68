package tests

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// integratorsDir holds the Node suites: tools no one here wrote judging the OpenAPI
// document and the built binary (openapi-typescript + openapi-fetch, Prism, the
// standardwebhooks and svix verifiers).
const integratorsDir = "integrators"

// needNodeKit skips loudly without Node or `npm ci`, and fails under CI=true.
func needNodeKit(t *testing.T) {
	t.Helper()
	why := ""
	if _, err := exec.LookPath("node"); err != nil {
		why = "node is not installed"
	} else if _, err := os.Stat(filepath.Join(integratorsDir, "node_modules", ".bin", "tsc")); err != nil {
		why = "tests/integrators/node_modules is missing: run `npm ci` in tests/integrators"
	}
	if why == "" {
		return
	}
	testenv.SkipSuite(t, "Integrators' kit (TypeScript client, Prism, webhook verifiers)", why, "install Node and run `npm ci` in tests/integrators")
}

// TestIntegratorKit builds the binary, serves it on SQLite with webhooks to loopback
// allowed, generates the TypeScript client from the document and runs the Node suites
// (node:test) against it. Any failing assertion or Prism violation fails this test.
func TestIntegratorKit(t *testing.T) {
	testenv.Parallel(t)
	if testing.Short() {
		t.Skip("builds the binary and runs Node; skipped with -short")
	}
	needNodeKit(t)
	bin := testenv.Binary(t)
	apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
	logPath := filepath.Join(t.TempDir(), "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command(bin, "serve")
	server.Env = append(os.Environ(),
		"CREATORAPI_DATA_DIR="+t.TempDir(),
		"CREATORAPI_DATABASE_URL=",
		"CREATORAPI_HTTP_ADDR="+apiAddr,
		"CREATORAPI_ADMIN_ADDR="+adminAddr,
		"CREATORAPI_ADMIN_TOKEN=integrators-admin-token-0123456789abcdef",
		"CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true",
	)
	server.Stdout, server.Stderr = logFile, logFile
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait(); _ = logFile.Close() })
	var none bytes.Buffer
	waitHealthy(t, "http://"+apiAddr+"/healthz", &none)

	npm := func(args ...string) {
		t.Helper()
		cmd := exec.Command("npm", args...)
		cmd.Dir = integratorsDir
		cmd.Env = append(os.Environ(),
			"CREATORAPI_BASE_URL=http://"+apiAddr,
			"CREATORAPI_ADMIN_URL=http://"+adminAddr,
			"CREATORAPI_ADMIN_TOKEN=integrators-admin-token-0123456789abcdef",
			"CREATORAPI_OPENAPI_YAML="+mustAbs(t, "../ports/http/api/v1/openapi/openapi.yaml"),
		)
		out, err := cmd.CombinedOutput()
		t.Logf("npm %s:\n%s", strings.Join(args, " "), out)
		if err != nil {
			logs, _ := os.ReadFile(logPath)
			t.Fatalf("npm %s failed: %v\nserver log (tail):\n%s", strings.Join(args, " "), err, tail(logs, 4000))
		}
	}
	npm("run", "--silent", "build")
	npm("run", "--silent", "test")
}

func mustAbs(t *testing.T, path string) string {
	t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
