// Command tlsbench measures what serving TLS costs: the built binary serves GET /healthz
// over plain HTTP (CREATORAPI_TLS=off) and over HTTPS (CREATORAPI_TLS=files, an ECDSA
// P-256 certificate), one after the other in the same run, with the same closed-loop
// keep-alive load (fasthttp client); then new TLS connections per second (one request on
// each: the handshake's cost). docs/performance.md, "TLS".
package main

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"flag"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

func main() {
	conns := flag.Int("conns", 32, "keep-alive connections")
	run := flag.Duration("run", 4*time.Second, "measured run per target")
	warmup := flag.Duration("warmup", 2*time.Second, "warm-up per target")
	flag.Parse()
	if err := bench(*conns, *warmup, *run); err != nil {
		fmt.Fprintln(os.Stderr, "tlsbench:", err)
		os.Exit(1)
	}
}

func bench(conns int, warmup, run time.Duration) error {
	dir, err := os.MkdirTemp("", "tlsbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "creatorapi")
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/creatorapi").CombinedOutput(); err != nil {
		return fmt.Errorf("go build (run from the repository root): %v\n%s", err, out)
	}
	certPath, keyPath := filepath.Join(dir, "tls.crt"), filepath.Join(dir, "tls.key")
	if err := writeSelfSigned(certPath, keyPath); err != nil {
		return err
	}
	fmt.Printf("GET /healthz, %d keep-alive connections, %s warm-up, %s run\n", conns, warmup, run)
	for _, tc := range []struct {
		name string
		tls  bool
	}{{"plain HTTP", false}, {"HTTPS (TLS 1.3, P-256)", true}} {
		addr, stop, err := serve(bin, dir, tc.tls, certPath, keyPath)
		if err != nil {
			return err
		}
		client := &fasthttp.HostClient{Addr: addr, MaxConns: conns, IsTLS: tc.tls,
			TLSConfig: &tls.Config{InsecureSkipVerify: true}, ReadTimeout: 10 * time.Second} //nolint:gosec // our own throwaway certificate
		load(client, conns, warmup)
		n, elapsed := load(client, conns, run)
		fmt.Printf("%-24s %8.0f req/s\n", tc.name, float64(n)/elapsed.Seconds())
		if tc.tls {
			handshakes(addr, conns, warmup)
			n, elapsed := handshakes(addr, conns, run)
			fmt.Printf("%-24s %8.0f new connections/s (one request each)\n", "HTTPS handshakes", float64(n)/elapsed.Seconds())
		}
		stop()
	}
	return nil
}

// load sends requests on conns workers, each its next when the previous answered, for d.
func load(client *fasthttp.HostClient, conns int, d time.Duration) (int64, time.Duration) {
	var done atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
			req.SetRequestURI("http://localhost/healthz")
			if client.IsTLS {
				req.SetRequestURI("https://localhost/healthz")
			}
			for time.Now().Before(deadline) {
				if err := client.Do(req, resp); err == nil && resp.StatusCode() == 200 {
					done.Add(1)
				} else if firstErr.CompareAndSwap(nil, true) {
					fmt.Fprintln(os.Stderr, "first failure:", err, resp.StatusCode())
				}
			}
		})
	}
	wg.Wait()
	return done.Load(), time.Since(start)
}

// handshakes opens a new TLS connection per request (no session resumption).
func handshakes(addr string, conns int, d time.Duration) (int64, time.Duration) {
	var done atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	deadline := start.Add(d)
	for range conns {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // our own throwaway certificate
				if err != nil {
					continue
				}
				_, _ = c.Write([]byte("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
				buf := make([]byte, 512)
				if n, _ := c.Read(buf); bytes.HasPrefix(buf[:n], []byte("HTTP/1.1 200")) {
					done.Add(1)
				}
				c.Close()
			}
		})
	}
	wg.Wait()
	return done.Load(), time.Since(start)
}

// serve starts the binary on a fresh SQLite database and waits until /healthz answers.
func serve(bin, dir string, withTLS bool, certPath, keyPath string) (string, func(), error) {
	httpAddr, httpsAddr, adminAddr := freeAddr(), freeAddr(), freeAddr()
	data, _ := os.MkdirTemp(dir, "data")
	env := append(os.Environ(), "CREATORAPI_DATA_DIR="+data, "CREATORAPI_HTTP_ADDR="+httpAddr, "CREATORAPI_ADMIN_ADDR="+adminAddr,
		"CREATORAPI_HTTPS_ADDR="+httpsAddr, "CREATORAPI_LOG_LEVEL=warn", "CREATORAPI_HTTP_MAX_CONNS_PER_IP=10000")
	addr, scheme := httpAddr, "http"
	if withTLS {
		env = append(env, "CREATORAPI_TLS=files", "CREATORAPI_TLS_CERT_FILE="+certPath, "CREATORAPI_TLS_KEY_FILE="+keyPath)
		addr, scheme = httpsAddr, "https"
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = env
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() { _ = cmd.Process.Signal(os.Interrupt); _ = cmd.Wait() }
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // ours
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if resp, err := client.Get(scheme + "://" + addr + "/healthz"); err == nil {
			resp.Body.Close()
			return addr, stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("%s not serving at %s", scheme, addr)
}

func freeAddr() string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func writeSelfSigned(certPath, keyPath string) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "localhost"}, DNSNames: []string{"localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		return err
	}
	return os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
}
