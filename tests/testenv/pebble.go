package testenv

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PebbleVersion is the Let's Encrypt test CA the ACME suites run against.
const PebbleVersion = "v2.10.3"

const pebbleInstall = "go install github.com/letsencrypt/pebble/v2/cmd/pebble@" + PebbleVersion

// Pebble is a running Pebble ACME server.
type Pebble struct {
	Directory string // the ACME directory URL
	CARoot    string // PEM file of the CA that signed Pebble's own HTTPS certificate
	mgmt      string
}

// StartPebble runs Pebble validating challenges on 127.0.0.1 at httpPort (HTTP-01) and
// tlsPort (TLS-ALPN-01), without its sleeps. Without a pebble binary (on PATH or in
// GOPATH/bin) and unable to install one, the suite is skipped loudly (failed under CI).
func StartPebble(t testing.TB, httpPort, tlsPort string) *Pebble {
	t.Helper()
	bin, certs, err := pebbleBinary()
	if err != nil {
		SkipSuite(t, "ACME (Pebble)", err.Error(), pebbleInstall)
	}
	listen, mgmt := FreeAddr(t), FreeAddr(t)
	config := map[string]any{"pebble": map[string]any{
		"listenAddress": listen, "managementListenAddress": mgmt,
		"certificate": filepath.Join(certs, "localhost", "cert.pem"), "privateKey": filepath.Join(certs, "localhost", "key.pem"),
		"httpPort": mustAtoi(t, httpPort), "tlsPort": mustAtoi(t, tlsPort), "ocspResponderURL": "",
		"externalAccountBindingRequired": false, "retryAfter": map[string]int{"authz": 1, "order": 1},
	}}
	raw, _ := json.Marshal(config)
	path := filepath.Join(t.TempDir(), "pebble.json")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-config", path, "-strict")
	// No sleeps before validating, no nonces rejected at random, no reused authorizations
	// (each order proves its challenge).
	cmd.Env = append(os.Environ(), "PEBBLE_VA_NOSLEEP=1", "PEBBLE_WFE_NONCEREJECT=0", "PEBBLE_AUTHZREUSE=0")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start pebble: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("pebble log:\n%s", logs.String())
		}
	})
	p := &Pebble{Directory: "https://" + listen + "/dir", CARoot: filepath.Join(certs, "pebble.minica.pem"), mgmt: "https://" + mgmt}
	client := p.client(t)
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := client.Get(p.Directory)
		if err == nil {
			resp.Body.Close()
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("pebble not up: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (p *Pebble) client(t testing.TB) *http.Client {
	pem, err := os.ReadFile(p.CARoot)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	return &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

// IssuingRoots is the pool of the roots Pebble issues under (new at every start).
func (p *Pebble) IssuingRoots(t testing.TB) *x509.CertPool {
	t.Helper()
	resp, err := p.client(t).Get(p.mgmt + "/roots/0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	pem, _ := io.ReadAll(resp.Body)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("pebble root: %s", pem)
	}
	return pool
}

// pebbleBinary finds pebble (installing it when missing) and its test certificates in
// the module cache.
func pebbleBinary() (bin, certs string, err error) {
	gopath := strings.TrimSpace(goEnv("GOPATH"))
	bin, err = exec.LookPath("pebble")
	if err != nil {
		bin = filepath.Join(strings.Split(gopath, string(os.PathListSeparator))[0], "bin", "pebble")
		if _, err := os.Stat(bin); err != nil {
			if out, err := exec.Command("go", strings.Fields(pebbleInstall)[1:]...).CombinedOutput(); err != nil {
				return "", "", fmt.Errorf("pebble is not installed and `%s` failed: %v: %s", pebbleInstall, err, out)
			}
		}
	}
	certs = filepath.Join(goEnv("GOMODCACHE"), "github.com", "letsencrypt", "pebble", "v2@"+PebbleVersion, "test", "certs")
	if _, err := os.Stat(filepath.Join(certs, "pebble.minica.pem")); err != nil {
		return "", "", fmt.Errorf("pebble's test certificates are not in the module cache (%s): %w", certs, err)
	}
	return bin, certs, nil
}

func goEnv(name string) string {
	out, _ := exec.Command("go", "env", name).Output()
	return strings.TrimSpace(string(out))
}

func mustAtoi(t testing.TB, s string) int {
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
