package web

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"log/slog"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
)

func selfSigned(t *testing.T) *tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(7), Subject: pkix.Name{CommonName: "localhost"}, DNSNames: []string{"localhost"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// The HTTPS listener drains like the plain one: a connection that finished its handshake
// but sent no request does not hold the stop for the read timeout, a request in flight
// finishes (with HSTS), and the handler sees the connection as TLS.
func TestTLSListenerDrains(t *testing.T) {
	cert := selfSigned(t)
	app := NewApp("test", slog.New(slog.NewTextHandler(io.Discard, nil)))
	release := make(chan struct{})
	app.Get("/slow", func(c *fiber.Ctx) error { <-release; return c.SendString(c.Protocol()) })
	addr := "127.0.0.1:" + freePort(t)
	l := &Listener{Name: "public", Addr: addr, App: app, Limits: DefaultLimits(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		TLS: ServerTLS(func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return cert, nil }, false)}
	if err := l.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	dial := func() *tls.Conn {
		c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // the test's own certificate
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	idle := dial() // handshake done, no request
	defer idle.Close()
	busy := dial()
	defer busy.Close()
	if _, err := busy.Write([]byte("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // past unusedGrace

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	stopped := make(chan error, 1)
	go func() { stopped <- l.Stop(ctx) }()
	time.Sleep(200 * time.Millisecond)
	close(release)
	raw, _ := io.ReadAll(busy)
	got := string(raw)
	if !strings.HasPrefix(got, "HTTP/1.1 200") || !strings.Contains(got, "Strict-Transport-Security: "+HSTS) || !strings.HasSuffix(got, "https") {
		t.Fatalf("in-flight request over TLS answered %q", got)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("stop: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("stop took %s: the handshaken idle connection held it", d)
	}
}

func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, p, _ := net.SplitHostPort(ln.Addr().String())
	return p
}
