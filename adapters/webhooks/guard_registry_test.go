package webhooks

import (
	"context"
	"errors"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	domain "github.com/creatorapi/creatorapi/domain/webhooks"
)

// Every row of the IANA special-purpose registries (and multicast) is refused: its first
// and last address, and one inside. The two IPv6 forms of IPv4 (IPv4-mapped, well-known
// NAT64) are judged by the address they carry, so their samples carry refused ones.
func TestGuardRefusesEveryRegistryEntry(t *testing.T) {
	samples := map[string][]string{
		"::ffff:0:0/96": {"::ffff:10.0.0.1", "::ffff:169.254.169.254", "::ffff:127.0.0.1"},
		"64:ff9b::/96":  {"64:ff9b::a9fe:a9fe", "64:ff9b::7f00:1", "64:ff9b::a00:1"},
	}
	g := Guard{}
	rows := append(append(append([]specialEntry{}, ipv4Special...), ipv6Special...), multicast...)
	if len(ipv4Special) != 25 || len(ipv6Special) != 25 {
		t.Fatalf("registry rows: %d IPv4, %d IPv6; update this test with the table", len(ipv4Special), len(ipv6Special))
	}
	for _, e := range rows {
		t.Run(e.Prefix.String(), func(t *testing.T) {
			addrs := samples[e.Prefix.String()]
			if addrs == nil {
				first := e.Prefix.Masked().Addr()
				addrs = []string{first.String(), last(e.Prefix).String()}
				if e.Prefix.Bits() < first.BitLen() {
					addrs = append(addrs, first.Next().String())
				}
			}
			for _, a := range addrs {
				err := g.Check(netip.MustParseAddr(a))
				if !errors.Is(err, ErrRefusedAddress) {
					t.Errorf("%s (%s, %s, globally reachable %s): %v, want refused", a, e.Name, e.RFC, e.Reachable, err)
					continue
				}
				if strings.Contains(registryRef.ReplaceAllString(err.Error(), ""), a) {
					t.Errorf("%s: the refusal names the address: %v", a, err)
				}
			}
		})
	}
}

// Addresses next to the registry's rows, and public ones in every IPv6 form, pass.
func TestGuardAllowsGlobalAddresses(t *testing.T) {
	for _, a := range []string{
		"1.1.1.1", "8.8.8.8", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255",
		"128.0.0.0", "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.0.3.0",
		"192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0", "203.0.112.255", "223.255.255.255",
		"2606:4700:4700::1111", "2a00:1450:4001::1", "2001:200::1", "2001:4860:4860::8888", "::ffff:1.1.1.1", "64:ff9b::101:101",
	} {
		if err := (Guard{}).Check(netip.MustParseAddr(a)); err != nil {
			t.Errorf("%s refused: %v", a, err)
		}
	}
}

// 169.254.169.254 (cloud metadata) in every IPv6 spelling that carries an IPv4 address:
// the sender refuses each before a connection is made, and says so without the address.
func TestSenderNeverDialsAnAddressEmbeddingTheMetadataAddress(t *testing.T) {
	s := NewSender(Guard{}, 4)
	for _, host := range []string{
		"169.254.169.254",
		"[::ffff:169.254.169.254]",               // IPv4-mapped
		"[::169.254.169.254]",                    // IPv4-compatible
		"[64:ff9b::a9fe:a9fe]",                   // NAT64, well-known prefix
		"[64:ff9b:1::a9fe:a9fe]",                 // NAT64, local-use prefix
		"[64:ff9b:1:a9fe:a9:fe00::]",             // NAT64 /48 layout of RFC 6052
		"[2002:a9fe:a9fe::1]",                    // 6to4
		"[2001:0:a9fe:a9fe::1]",                  // Teredo, as the server
		"[2001:0:4136:e378:8000:63bf:5601:5601]", // Teredo, as the obfuscated client
	} {
		res := s.Send(context.Background(), Message{URL: "https://" + host + "/latest/meta-data/", Body: []byte(`{}`)}, time.Now())
		if res.Transport != domain.TransportRefused || domain.Classify(res) != domain.Failed {
			t.Errorf("%s: %+v, want refused without retry", host, res)
		}
		if strings.Contains(res.Error, "169.254.169.254") || strings.Contains(res.Error, "a9fe") {
			t.Errorf("%s: the attempt error names the address: %q", host, res.Error)
		}
	}
}

// registryRef is the "(prefix, RFC)" a refusal cites.
var registryRef = regexp.MustCompile(`\([^()]*/\d+, RFC \d+\)`)

func last(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 1 << (7 - i%8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}
