package tests

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/adapters/sql/tlsstorage"
	"github.com/creatorapi/creatorapi/adapters/tlscerts"
	"github.com/creatorapi/creatorapi/ports/http/web"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// acmeInstance is the HTTPS side of one service instance in acme mode: the certificate
// source over the database, the HTTPS listener (which answers TLS-ALPN-01) and the plain
// one (HTTP-01 and the redirect), wired as compose wires them.
type acmeInstance struct{ httpsAddr string }

func startACMEInstance(t *testing.T, databaseURL, httpPort, httpsPort string, p *testenv.Pebble, o tlscerts.ACMEOptions) acmeInstance {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	o.Domains, o.Directory, o.CARoot = []string{"localhost"}, p.Directory, p.CARoot
	// All interfaces: Pebble's validator may reach localhost over IPv4 or IPv6.
	o.HTTPAddr, o.HTTPSAddr = ":"+httpPort, ":"+httpsPort
	src, err := tlscerts.NewACME(o, tlsstorage.New(testenv.MigratedDB(t, databaseURL)))
	if err != nil {
		t.Fatal(err)
	}
	app := web.NewApp("creatorapi", logger)
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.SendString("ok") })
	workers := []interface {
		Start(context.Context) error
		Stop(context.Context) error
	}{
		&web.Listener{Name: "public", Addr: o.HTTPSAddr, App: app, TLS: web.ServerTLS(src.GetCertificate, src.ACME), Limits: web.DefaultLimits(), Logger: logger},
		&web.Listener{Name: "http", Addr: o.HTTPAddr, App: web.NewRedirectApp(httpsPort, src.HTTPChallenge, web.NewApp("http", logger)), Limits: web.DefaultLimits(), Logger: logger},
		src.Worker, // after the listeners, as in compose
	}
	for _, w := range workers {
		if err := w.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := w.Stop(ctx); err != nil { // cleanups run last-first: the reverse order
				t.Errorf("stop: %v", err)
			}
		})
	}
	return acmeInstance{httpsAddr: "127.0.0.1:" + httpsPort}
}

// waitForCertificate polls HTTPS until it serves a certificate for localhost that chains to
// roots, and returns it; the request over it must succeed with HSTS.
func (in acmeInstance) waitForCertificate(t *testing.T, roots *x509.CertPool, within time.Duration) *x509.Certificate {
	t.Helper()
	deadline := time.Now().Add(within)
	var last error
	for time.Now().Before(deadline) {
		conn, err := tls.Dial("tcp", in.httpsAddr, &tls.Config{RootCAs: roots, ServerName: "localhost"})
		if err == nil {
			leaf := conn.ConnectionState().PeerCertificates[0]
			conn.Close()
			client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, ServerName: "localhost"}}}
			resp, err := client.Get("https://" + in.httpsAddr + "/healthz")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Strict-Transport-Security") != web.HSTS {
				t.Fatalf("over the ACME certificate: %d HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
			}
			return leaf
		}
		last = err
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no certificate from Pebble at %s within %s: %v", in.httpsAddr, within, last)
	return nil
}

// TestACMECertificateByEachChallenge orders a certificate from Pebble with only HTTP-01,
// then with only TLS-ALPN-01, on each database: Pebble really connects to the service's
// listeners to validate.
func TestACMECertificateByEachChallenge(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		for _, c := range []struct {
			name string
			o    tlscerts.ACMEOptions
		}{
			{"http-01", tlscerts.ACMEOptions{DisableTLSALPN: true}},
			{"tls-alpn-01", tlscerts.ACMEOptions{DisableHTTP: true}},
		} {
			t.Run(c.name, func(t *testing.T) {
				httpPort, httpsPort := testenv.FreePort(t), testenv.FreePort(t)
				p := testenv.StartPebble(t, httpPort, httpsPort)
				db := databaseURL
				if c.name == "tls-alpn-01" { // a fresh database: nothing stored by the first order
					db = freshLike(t, databaseURL)
				}
				in := startACMEInstance(t, db, httpPort, httpsPort, p, c.o)
				leaf := in.waitForCertificate(t, p.IssuingRoots(t), 90*time.Second)
				if leaf.Subject.CommonName != "localhost" && (len(leaf.DNSNames) != 1 || leaf.DNSNames[0] != "localhost") {
					t.Fatalf("certificate for %v %v", leaf.Subject, leaf.DNSNames)
				}
			})
		}
	})
}

// TestACMETwoInstancesShareOneCertificate starts two instances on one PostgreSQL: one
// orders under the lock in the database, the other waits for the lock and loads what was
// stored; both serve the very same certificate (two orders would give two serials).
func TestACMETwoInstancesShareOneCertificate(t *testing.T) {
	testenv.Parallel(t) // its own cluster or Pebble and free ports: nothing shared
	databaseURL := testenv.NewPostgresURL(t)
	httpPort, httpsPort := testenv.FreePort(t), testenv.FreePort(t)
	p := testenv.StartPebble(t, httpPort, httpsPort)
	// b starts first and takes the lock, so it orders while Pebble validates at a's
	// ports: a answers b's challenges from the database (certmagic's distributed solver).
	b := startACMEInstance(t, databaseURL, testenv.FreePort(t), testenv.FreePort(t), p, tlscerts.ACMEOptions{})
	db := testenv.MigratedDB(t, databaseURL)
	deadline := time.Now().Add(30 * time.Second)
	for held := 0; held == 0; {
		if err := db.Reader.Get(&held, `SELECT count(*) FROM tls_locks`); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("the first instance took no issuance lock")
		}
		time.Sleep(5 * time.Millisecond)
	}
	a := startACMEInstance(t, databaseURL, httpPort, httpsPort, p, tlscerts.ACMEOptions{})
	roots := p.IssuingRoots(t)
	first := a.waitForCertificate(t, roots, 90*time.Second)
	second := b.waitForCertificate(t, roots, 90*time.Second)
	if first.SerialNumber.Cmp(second.SerialNumber) != 0 {
		t.Fatalf("two instances serve two certificates (serials %s and %s): ordered twice", first.SerialNumber, second.SerialNumber)
	}
}

func freshLike(t *testing.T, databaseURL string) string {
	if len(databaseURL) > 9 && databaseURL[:9] == "sqlite://" {
		return testenv.NewSQLiteURL(t)
	}
	return testenv.NewPostgresURL(t)
}
