package web

import (
	"bufio"
	"io"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pires/go-proxyproto"
)

// TestClientIPForgedAndGenuine is the table of what a request's address must be: headers
// believed only from trusted proxies, read right to left past our own proxies, so that
// whatever a client writes on the left changes nothing.
func TestClientIPForgedAndGenuine(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("fd00::/8")}
	xff := ClientAddresses{Mode: ClientIPForwardedFor, Trusted: trusted}
	fwd := ClientAddresses{Mode: ClientIPForwarded, Trusted: trusted}
	direct := ClientAddresses{Mode: ClientIPDirect, Trusted: trusted}
	pp := ClientAddresses{Mode: ClientIPProxyProtocol, Trusted: trusted}
	cases := []struct {
		name     string
		a        ClientAddresses
		peer     string
		xff, fwd []string
		want     string
	}{
		{"direct ignores headers even from a trusted peer", direct, "10.0.0.1", []string{"1.2.3.4"}, nil, "10.0.0.1"},
		{"proxy-protocol ignores headers (the connection carries the address)", pp, "10.0.0.1", []string{"1.2.3.4"}, nil, "10.0.0.1"},
		{"untrusted peer: X-Forwarded-For ignored", xff, "203.0.113.9", []string{"1.2.3.4"}, nil, "203.0.113.9"},
		{"untrusted peer: Forwarded ignored", fwd, "203.0.113.9", nil, []string{"for=1.2.3.4"}, "203.0.113.9"},
		{"genuine: one proxy", xff, "10.0.0.1", []string{"198.51.100.7"}, nil, "198.51.100.7"},
		{"forged left-most entry changes nothing", xff, "10.0.0.1", []string{"1.1.1.1, 198.51.100.7"}, nil, "198.51.100.7"},
		{"forged entries across repeated headers", xff, "10.0.0.1", []string{"1.1.1.1", "2.2.2.2, 198.51.100.7"}, nil, "198.51.100.7"},
		{"two trusted proxies skipped", xff, "10.0.0.1", []string{"6.6.6.6, 198.51.100.7, 10.0.0.2"}, nil, "198.51.100.7"},
		{"forged trusted-looking entry left of the client", xff, "10.0.0.1", []string{"10.9.9.9, 198.51.100.7"}, nil, "198.51.100.7"},
		{"garbage right of the client: the nearest known hop", xff, "10.0.0.1", []string{"198.51.100.7, nonsense"}, nil, "10.0.0.1"},
		{"garbage left of the client changes nothing", xff, "10.0.0.1", []string{"nonsense, 198.51.100.7"}, nil, "198.51.100.7"},
		{"only trusted hops: the left-most", xff, "10.0.0.1", []string{"10.0.0.3, 10.0.0.2"}, nil, "10.0.0.3"},
		{"trusted peer, no header: the peer", xff, "10.0.0.1", nil, nil, "10.0.0.1"},
		{"port on an entry", xff, "10.0.0.1", []string{"198.51.100.7:5555"}, nil, "198.51.100.7"},
		{"IPv6 entry", xff, "fd00::1", []string{"2001:db8::7"}, nil, "2001:db8::7"},
		{"IPv4-mapped peer is trusted as IPv4", xff, "::ffff:10.0.0.1", []string{"198.51.100.7"}, nil, "198.51.100.7"},
		{"Forwarded genuine", fwd, "10.0.0.1", nil, []string{`for=198.51.100.7;proto=https;by=10.0.0.1`}, "198.51.100.7"},
		{"Forwarded forged left-most element", fwd, "10.0.0.1", nil, []string{`for=1.1.1.1, for=198.51.100.7`}, "198.51.100.7"},
		{"Forwarded quoted IPv6 with port", fwd, "10.0.0.1", nil, []string{`for="[2001:db8:cafe::17]:4711"`}, "2001:db8:cafe::17"},
		{"Forwarded repeated headers, trusted hop skipped", fwd, "10.0.0.1", nil, []string{`for=1.1.1.1`, `for=198.51.100.7, for=10.0.0.2`}, "198.51.100.7"},
		{"Forwarded unknown right of the client", fwd, "10.0.0.1", nil, []string{`for=198.51.100.7, for=unknown`}, "10.0.0.1"},
		{"Forwarded obfuscated identifier", fwd, "10.0.0.1", nil, []string{`for=_hidden`}, "10.0.0.1"},
		{"Forwarded quoted comma inside a value", fwd, "10.0.0.1", nil, []string{`for=198.51.100.7;ext="a,b"`}, "198.51.100.7"},
		{"X-Forwarded-For ignored in forwarded mode", fwd, "10.0.0.1", []string{"1.1.1.1"}, nil, "10.0.0.1"},
	}
	for _, c := range cases {
		got := c.a.Resolve(netip.MustParseAddr(c.peer), c.xff, c.fwd)
		if got.String() != c.want {
			t.Errorf("%s: got %s, want %s", c.name, got, c.want)
		}
	}
}

func TestLoadClientAddressesRefusesHeadersWithoutProxies(t *testing.T) {
	env := func(m map[string]string) func(string, string) string {
		return func(k, def string) string {
			if v, ok := m[k]; ok {
				return v
			}
			return def
		}
	}
	if _, err := LoadClientAddresses(env(map[string]string{"CREATORAPI_CLIENT_IP": "x-forwarded-for"})); err == nil {
		t.Fatal("x-forwarded-for without trusted proxies accepted")
	}
	if _, err := LoadClientAddresses(env(map[string]string{"CREATORAPI_CLIENT_IP": "real-ip", "CREATORAPI_TRUSTED_PROXIES": "10.0.0.0/8"})); err == nil {
		t.Fatal("an unknown mode accepted")
	}
	if _, err := LoadClientAddresses(env(map[string]string{"CREATORAPI_TRUSTED_PROXIES": "10.0.0.0/33"})); err == nil {
		t.Fatal("a bad CIDR accepted")
	}
	a, err := LoadClientAddresses(env(map[string]string{"CREATORAPI_CLIENT_IP": "forwarded", "CREATORAPI_TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1"}))
	if err != nil || len(a.Trusted) != 2 || a.Trusted[1].String() != "192.0.2.1/32" {
		t.Fatalf("%+v %v", a, err)
	}
}

// TestClientIPProxyProtocol serves a real listener behind the PROXY protocol wrapper: a
// trusted peer's v1 and v2 headers give the address; a trusted peer without a header and
// an untrusted peer with one are refused; an untrusted peer without one is its socket.
func TestClientIPProxyProtocol(t *testing.T) {
	serve := func(t *testing.T, trusted string) string {
		a := ClientAddresses{Mode: ClientIPProxyProtocol, Trusted: []netip.Prefix{netip.MustParsePrefix(trusted)}}
		app := fiber.New(fiber.Config{DisableStartupMessage: true})
		app.Use(a.Middleware())
		app.Get("/ip", func(c *fiber.Ctx) error { return c.SendString(ClientIP(c)) })
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() { _ = app.Listener(a.ProxyProtocol(ln)) }()
		t.Cleanup(func() { _ = app.Shutdown() })
		return ln.Addr().String()
	}
	ask := func(t *testing.T, addr string, header *proxyproto.Header) (string, error) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		if header != nil {
			if _, err := header.WriteTo(conn); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := io.WriteString(conn, "GET /ip HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6\r\nConnection: close\r\n\r\n"); err != nil {
			return "", err
		}
		r := bufio.NewReader(conn)
		raw, err := io.ReadAll(r)
		if err != nil && len(raw) == 0 {
			return "", err
		}
		s := string(raw)
		if !strings.HasPrefix(s, "HTTP/1.1 200") {
			return "", io.ErrUnexpectedEOF
		}
		return s[strings.LastIndex(s, "\r\n\r\n")+4:], nil
	}
	header := func(v byte, src string) *proxyproto.Header {
		return &proxyproto.Header{Version: v, Command: proxyproto.PROXY, TransportProtocol: proxyproto.TCPv4,
			SourceAddr:      &net.TCPAddr{IP: net.ParseIP(src), Port: 40000},
			DestinationAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.1"), Port: 443}}
	}

	trustedAddr := serve(t, "127.0.0.0/8")
	for _, v := range []byte{1, 2} {
		if got, err := ask(t, trustedAddr, header(v, "198.51.100.7")); err != nil || got != "198.51.100.7" {
			t.Errorf("trusted peer, PROXY v%d: %q %v, want 198.51.100.7", v, got, err)
		}
	}
	if got, err := ask(t, trustedAddr, nil); err == nil {
		t.Errorf("trusted peer without a PROXY header answered %q; the header is required", got)
	}

	untrustedAddr := serve(t, "10.0.0.0/8")
	if got, err := ask(t, untrustedAddr, header(2, "198.51.100.7")); err == nil {
		t.Errorf("untrusted peer's PROXY header accepted: %q", got)
	}
	if got, err := ask(t, untrustedAddr, nil); err != nil || got != "127.0.0.1" {
		t.Errorf("untrusted peer without a header: %q %v, want its socket 127.0.0.1", got, err)
	}
}
