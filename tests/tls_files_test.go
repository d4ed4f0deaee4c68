package tests

import (
	"crypto/tls"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestTLSFilesServesHTTPSItself runs the binary with CREATORAPI_TLS=files: HTTPS with HSTS,
// TLS 1.1 refused, no h2 even when the client prefers it, the plain listener's 308
// redirect without HSTS, a swapped pair served after SIGHUP, a bad pair keeping the old
// one, and a change picked up without a signal.
func TestTLSFilesServesHTTPSItself(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		bin := testenv.Binary(t)
		dir := t.TempDir()
		certPath, keyPath := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
		ca := testenv.NewTestCA(t)
		first := ca.Issue(t, 1001)
		testenv.WriteFiles(t, certPath, keyPath, first.CertPEM, first.KeyPEM)

		httpsAddr, httpAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
		_, httpsPort, _ := net.SplitHostPort(httpsAddr)
		server := exec.Command(bin, "serve")
		server.Env = append(os.Environ(),
			"CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL,
			"CREATORAPI_HTTP_ADDR="+httpAddr, "CREATORAPI_HTTPS_ADDR="+httpsAddr,
			"CREATORAPI_ADMIN_ADDR="+testenv.FreeAddr(t), "CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789",
			"CREATORAPI_TLS=files", "CREATORAPI_TLS_CERT_FILE="+certPath, "CREATORAPI_TLS_KEY_FILE="+keyPath)
		var logs syncBuffer
		server.Stderr = &logs
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = server.Process.Kill(); _ = server.Wait() })

		client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool}}}
		deadline := time.Now().Add(30 * time.Second)
		for {
			resp, err := client.Get("https://" + httpsAddr + "/healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("healthz over https: %d", resp.StatusCode)
				}
				if got := resp.Header.Get("Strict-Transport-Security"); got != "max-age=63072000" {
					t.Fatalf("HSTS on https = %q", got)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("https not serving: %v\n%s", err, logs.String())
			}
			time.Sleep(100 * time.Millisecond)
		}
		// The image's HEALTHCHECK asks the HTTPS listener (the plain one only redirects).
		check := exec.Command(bin, "healthcheck")
		check.Env = server.Env
		if out, err := check.CombinedOutput(); err != nil || !strings.HasPrefix(string(out), "200") {
			t.Fatalf("healthcheck with TLS on: %v: %s", err, out)
		}
		// HSTS on an error answered outside the routes too (unknown method).
		req, _ := http.NewRequest("BREW", "https://"+httpsAddr+"/api/v1/courses", nil)
		if resp, err := client.Do(req); err != nil || resp.Header.Get("Strict-Transport-Security") == "" {
			t.Fatalf("HSTS missing on a 405: %v %v", err, resp)
		} else {
			resp.Body.Close()
		}

		served := func() (serial int64, proto string, err error) {
			conn, err := tls.Dial("tcp", httpsAddr, &tls.Config{RootCAs: ca.Pool, ServerName: "localhost", NextProtos: []string{"h2", "http/1.1"}})
			if err != nil {
				return 0, "", err
			}
			defer conn.Close()
			st := conn.ConnectionState()
			return st.PeerCertificates[0].SerialNumber.Int64(), st.NegotiatedProtocol, nil
		}
		if serial, proto, err := served(); err != nil || serial != first.Serial || proto != "http/1.1" {
			t.Fatalf("first handshake: serial %d proto %q err %v (want %d, http/1.1: fasthttp has no h2)", serial, proto, err, first.Serial)
		}
		if c, err := tls.Dial("tcp", httpsAddr, &tls.Config{RootCAs: ca.Pool, ServerName: "localhost", MaxVersion: tls.VersionTLS11}); err == nil {
			c.Close()
			t.Fatal("a TLS 1.1 handshake succeeded")
		}

		// The plain listener redirects everything (method and body kept: 308) and sends no HSTS.
		noFollow := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := noFollow.Post("http://"+httpAddr+"/api/v1/courses?limit=2", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		_, httpPort, _ := net.SplitHostPort(httpAddr)
		if want := "https://127.0.0.1:" + httpsPort + "/api/v1/courses?limit=2"; resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
			t.Fatalf("plain http: %d Location %q, want 308 %q (http port %s)", resp.StatusCode, resp.Header.Get("Location"), want, httpPort)
		}
		if resp.Header.Get("Strict-Transport-Security") != "" {
			t.Fatal("HSTS sent over plain HTTP")
		}

		waitSerial := func(want int64, why string) {
			t.Helper()
			deadline := time.Now().Add(10 * time.Second)
			for {
				serial, _, err := served()
				if err == nil && serial == want {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: serving serial %d (err %v), want %d\n%s", why, serial, err, want, logs.String())
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
		// Swapped + SIGHUP: the new pair serves.
		second := ca.Issue(t, 1002)
		testenv.WriteFiles(t, certPath, keyPath, second.CertPEM, second.KeyPEM)
		if err := server.Process.Signal(syscall.SIGHUP); err != nil {
			t.Fatal(err)
		}
		waitSerial(second.Serial, "after SIGHUP")

		// A bad pair (a certificate with another certificate's key) keeps the old one.
		third := ca.Issue(t, 1003)
		testenv.WriteFiles(t, certPath, keyPath, third.CertPEM, first.KeyPEM)
		_ = server.Process.Signal(syscall.SIGHUP)
		deadline = time.Now().Add(10 * time.Second)
		for !strings.Contains(logs.String(), "TLS certificate not reloaded") {
			if time.Now().After(deadline) {
				t.Fatalf("no error logged for a bad pair\n%s", logs.String())
			}
			time.Sleep(50 * time.Millisecond)
		}
		if serial, _, err := served(); err != nil || serial != second.Serial {
			t.Fatalf("after a bad pair: serial %d err %v, want the previous %d", serial, err, second.Serial)
		}

		// Changed files are picked up without a signal (polled).
		fourth := ca.Issue(t, 1004)
		testenv.WriteFiles(t, certPath, keyPath, fourth.CertPEM, fourth.KeyPEM)
		waitSerial(fourth.Serial, "after the files changed")

		stopServe(t, server, &logs)
	})
}
