package webhooks

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	domain "github.com/creatorapi/creatorapi/domain/webhooks"
)

func TestGuardRefusesEveryInternalAddressClass(t *testing.T) {
	refused := map[string][]string{
		"loopback":         {"127.0.0.1", "127.255.255.254", "::1"},
		"private":          {"10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fc00::1", "fd12:3456::1"},
		"link-local":       {"169.254.0.1", "fe80::1", "fe80::1%eth0"},
		"CGNAT":            {"100.64.0.1", "100.127.255.254"},
		"multicast":        {"224.0.0.1", "239.255.255.250", "ff02::1", "ff05::2"},
		"unspecified":      {"0.0.0.0", "::", "0.1.2.3"},
		"cloud metadata":   {"169.254.169.254", "fd00:ec2::254"},
		"IPv4-mapped IPv6": {"::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:100.64.0.1", "::ffff:0.0.0.0"},
		"embedded IPv4":    {"::127.0.0.1", "64:ff9b::a00:1", "2002:7f00:1::1", "2002:808:808::1"},
		"reserved":         {"240.0.0.1", "255.255.255.255", "198.18.0.1", "192.0.0.8", "192.0.2.1", "2001:db8::1"},
	}
	g := Guard{}
	for class, addrs := range refused {
		for _, a := range addrs {
			ip := netip.MustParseAddr(a)
			if err := g.Check(ip); !errors.Is(err, ErrRefusedAddress) {
				t.Errorf("%s %s: %v, want refused", class, a, err)
			}
			if err := g.Control("tcp", net.JoinHostPort(a, "443"), nil); !errors.Is(err, ErrRefusedAddress) {
				t.Errorf("%s %s through Control: %v, want refused", class, a, err)
			}
			if err := (Guard{AllowPrivate: true}).Check(ip); err != nil {
				t.Errorf("%s %s with AllowPrivate: %v", class, a, err)
			}
		}
	}
	for _, a := range []string{"93.184.216.34", "8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"} {
		if err := g.Check(netip.MustParseAddr(a)); err != nil {
			t.Errorf("public %s refused: %v", a, err)
		}
	}
}

// A host name that resolves to loopback is refused at connection time, whatever the name.
func TestSenderRefusesNamesResolvingToInternalAddresses(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the guarded sender reached %s", r.Host)
	}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	s := NewSender(Guard{}, 4)
	for _, target := range []string{
		"https://localhost:" + port + "/hook",
		"https://127.0.0.1:" + port + "/hook",
		"https://[::ffff:127.0.0.1]:" + port + "/hook",
		"https://169.254.169.254/latest/meta-data/",
		"https://[fd00:ec2::254]/",
		"https://10.0.0.1/",
	} {
		res := s.Send(context.Background(), Message{URL: target, Body: []byte(`{}`)}, time.Now())
		if res.Transport != domain.TransportRefused || !strings.Contains(res.Error, "refused") || domain.Classify(res) != domain.Failed {
			t.Errorf("%s: %+v, want refused without retry", target, res)
		}
	}
	// http:// is refused unless private targets are allowed.
	res := s.Send(context.Background(), Message{URL: "http://example.com/", Body: []byte(`{}`)}, time.Now())
	if res.Transport != domain.TransportRefused {
		t.Errorf("http target: %+v, want refused", res)
	}
}
