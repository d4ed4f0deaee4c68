package webhooks

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"syscall"
)

// ErrRefusedAddress reports a connection the SSRF guard refused.
var ErrRefusedAddress = errors.New("address refused")

// Guard refuses connections to addresses a webhook must not reach: loopback, private,
// link-local, CGNAT, multicast, unspecified, reserved and cloud metadata addresses, in
// IPv4, IPv6 and IPv4-mapped (or embedded) IPv6 forms. It runs as the dialer's Control,
// on the address actually being dialled, so a DNS answer that changes between a check and
// the connection (rebinding) cannot slip through.
type Guard struct {
	AllowPrivate bool
}

var refusedPrefixes = func() []netip.Prefix {
	var out []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",         // "this network"
		"100.64.0.0/10",     // CGNAT (RFC 6598)
		"192.0.0.0/24",      // IETF protocol assignments
		"192.0.2.0/24",      // TEST-NET-1
		"198.18.0.0/15",     // benchmarking
		"198.51.100.0/24",   // TEST-NET-2
		"203.0.113.0/24",    // TEST-NET-3
		"240.0.0.0/4",       // reserved, and 255.255.255.255
		"fd00:ec2::254/128", // AWS metadata over IPv6 (also inside fc00::/7)
		"100::/64",          // discard-only
		"2001:db8::/32",     // documentation
		"fec0::/10",         // deprecated site-local
	} {
		out = append(out, netip.MustParsePrefix(s))
	}
	return out
}()

var metadataV4 = netip.MustParseAddr("169.254.169.254")

// Check returns nil when ip may be connected to.
func (g Guard) Check(ip netip.Addr) error {
	if g.AllowPrivate {
		return nil
	}
	if why := refusal(ip); why != "" {
		return fmt.Errorf("%w: %s is %s", ErrRefusedAddress, ip, why)
	}
	return nil
}

func refusal(ip netip.Addr) string {
	if !ip.IsValid() {
		return "not an IP address"
	}
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return refusal(ip.Unmap())
	}
	if embedded, ok := embeddedIPv4(ip); ok {
		if why := refusal(embedded); why != "" {
			return "an IPv6 form of an address that " + why
		}
	}
	switch {
	case ip == metadataV4:
		return "a cloud metadata address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsPrivate():
		return "a private address"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "a link-local address"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return "a multicast address"
	case ip.IsUnspecified():
		return "the unspecified address"
	}
	for _, p := range refusedPrefixes {
		if p.Contains(ip) {
			return "a reserved address (" + p.String() + ")"
		}
	}
	return ""
}

// embeddedIPv4 finds an IPv4 address carried inside IPv6: IPv4-compatible (::a.b.c.d),
// NAT64 (64:ff9b::/96) and 6to4 (2002::/16).
func embeddedIPv4(ip netip.Addr) (netip.Addr, bool) {
	if !ip.Is6() {
		return netip.Addr{}, false
	}
	b := ip.As16()
	var zero [12]byte
	switch {
	case [12]byte(b[:12]) == zero && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback():
		return netip.AddrFrom4([4]byte(b[12:])), true
	case netip.MustParsePrefix("64:ff9b::/96").Contains(ip):
		return netip.AddrFrom4([4]byte(b[12:])), true
	case b[0] == 0x20 && b[1] == 0x02:
		return netip.AddrFrom4([4]byte(b[2:6])), true
	}
	return netip.Addr{}, false
}

// Control is a net.Dialer Control: it sees the resolved address of each connection.
func (g Guard) Control(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrRefusedAddress, address, err)
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return fmt.Errorf("%w: %s is not an IP address", ErrRefusedAddress, host)
	}
	return g.Check(ip)
}
