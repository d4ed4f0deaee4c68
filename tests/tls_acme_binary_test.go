package tests

import (
	"crypto/tls"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestACMEServeTwoProcessesOnePostgres runs `creatorapi serve` twice with CREATORAPI_TLS=acme
// on one PostgreSQL against Pebble, which validates at the first process's ports only: one
// order in all (one "certificate obtained" across both logs), both processes serve the same
// certificate, the health check passes over HTTPS, and the plain listener redirects.
func TestACMEServeTwoProcessesOnePostgres(t *testing.T) {
	testenv.Parallel(t) // its own cluster or Pebble and free ports: nothing shared
	databaseURL := testenv.NewPostgresURL(t)
	bin := testenv.Binary(t)
	httpPort, httpsPort := testenv.FreePort(t), testenv.FreePort(t)
	p := testenv.StartPebble(t, httpPort, httpsPort)
	type process struct {
		httpsAddr string
		env       []string
		logs      *syncBuffer
	}
	start := func(httpPort, httpsPort string) process {
		env := append(os.Environ(), "CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+databaseURL,
			"CREATORAPI_HTTP_ADDR=:"+httpPort, "CREATORAPI_HTTPS_ADDR=:"+httpsPort, "CREATORAPI_ADMIN_ADDR="+testenv.FreeAddr(t),
			"CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789",
			"CREATORAPI_SECRET_KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
			"CREATORAPI_TLS=acme", "CREATORAPI_TLS_DOMAINS=localhost", "CREATORAPI_TLS_EMAIL=ops@example.com",
			"CREATORAPI_ACME_DIRECTORY="+p.Directory, "CREATORAPI_ACME_CA_ROOT="+p.CARoot)
		cmd := exec.Command(bin, "serve")
		cmd.Env = env
		logs := &syncBuffer{}
		cmd.Stderr = logs
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			_ = cmd.Process.Signal(os.Interrupt)
			_ = cmd.Wait()
			if t.Failed() {
				t.Logf("serve on :%s:\n%s", httpsPort, logs.String())
			}
		})
		return process{httpsAddr: "127.0.0.1:" + httpsPort, env: env, logs: logs}
	}
	a := start(httpPort, httpsPort)
	b := start(testenv.FreePort(t), testenv.FreePort(t))

	roots := p.IssuingRoots(t)
	serial := func(in process) string {
		t.Helper()
		deadline := time.Now().Add(120 * time.Second)
		for {
			conn, err := tls.Dial("tcp", in.httpsAddr, &tls.Config{RootCAs: roots, ServerName: "localhost"})
			if err == nil {
				defer conn.Close()
				return conn.ConnectionState().PeerCertificates[0].SerialNumber.String()
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s serves no certificate from Pebble: %v\n%s", in.httpsAddr, err, in.logs.String())
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	if sa, sb := serial(a), serial(b); sa != sb {
		t.Fatalf("the processes serve serials %s and %s: ordered twice", sa, sb)
	}
	if n := strings.Count(a.logs.String()+b.logs.String(), "certificate obtained successfully"); n != 1 {
		t.Fatalf("%d orders completed across the two processes, want 1", n)
	}
	// Either process may win the lock: when the second does, the first answers its
	// challenges from the database (certmagic's distributed solver); both ways pass.
	orderedByFirst := strings.Contains(a.logs.String(), "certificate obtained")
	t.Logf("ordered by the %s process; challenge answered from the database: %v",
		map[bool]string{true: "first (Pebble's ports)", false: "second"}[orderedByFirst], strings.Contains(a.logs.String(), `"distributed":true`))
	check := exec.Command(bin, "healthcheck")
	check.Env = a.env
	if out, err := check.CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "200") {
		t.Fatalf("healthcheck in acme mode: %v: %s", err, out)
	}
	noFollow := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := noFollow.Get("http://localhost:" + httpPort + "/dashboard/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != "https://localhost:"+httpsPort+"/dashboard/" {
		t.Fatalf("plain listener in acme mode: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}
