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

// Guard refuses connections to addresses a webhook must not reach. It runs as the
// dialer's Control, on the address actually being dialled, so a DNS answer that changes
// between a check and the connection (rebinding) cannot slip through.
//
// What is refused (docs/webhooks.md): every address of IANA's special-purpose registries
// (special_addresses.go), whether the registry calls it globally reachable or not (the
// reachable ones are protocol infrastructure, anycast relays and sinks, never a webhook
// receiver), multicast, and IPv6 outside 2000::/3. The one exception is the well-known
// NAT64 prefix 64:ff9b::/96, judged by the IPv4 address it carries. Every IPv6 form that
// carries an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is also
// judged by that address, so that 169.254.169.254 is refused in all its spellings.
type Guard struct {
	AllowPrivate bool
}

// refusal says why an address is refused; it never names the address itself (the error
// reaches the attempt log, which people read).
type refusal struct{ why string }

func (r *refusal) Error() string        { return "address refused: the target is " + r.why }
func (r *refusal) Is(target error) bool { return target == ErrRefusedAddress }

// nat64 is the well-known NAT64 prefix (RFC 6052): the one registry entry allowed, for the
// public IPv4 address it carries.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// Check returns nil when ip may be connected to.
func (g Guard) Check(ip netip.Addr) error {
	if g.AllowPrivate {
		return nil
	}
	if why := refusalOf(ip); why != "" {
		return &refusal{why: why}
	}
	return nil
}

func refusalOf(ip netip.Addr) string {
	if !ip.IsValid() {
		return "not an IP address"
	}
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return refusalOf(ip.Unmap()) // how an IPv4 address looks on an IPv6 socket
	}
	for _, v4 := range embeddedIPv4(ip) {
		if why := refusalOf(v4); why != "" {
			return "an IPv6 form of " + why
		}
	}
	if nat64.Contains(ip) {
		return "" // judged above by the IPv4 address it carries
	}
	if e, ok := mostSpecific(ip); ok {
		return fmt.Sprintf("a special-purpose address: %s (%s, %s)", e.Name, e.Prefix, e.RFC)
	}
	if ip.Is6() && !globalUnicast.Contains(ip) {
		return "a reserved IPv6 address (outside 2000::/3)"
	}
	return ""
}

// embeddedIPv4 returns the IPv4 addresses an IPv6 address carries: IPv4-compatible
// (::a.b.c.d), NAT64 (64:ff9b::/96), 6to4 (2002:AABB:CCDD::/48) and Teredo (2001:0:SERVER:
// flags:port:~CLIENT, both the server and the obfuscated client).
func embeddedIPv4(ip netip.Addr) []netip.Addr {
	if !ip.Is6() {
		return nil
	}
	b := ip.As16()
	low := netip.AddrFrom4([4]byte(b[12:]))
	switch {
	case [12]byte(b[:12]) == [12]byte{} && ip != netip.IPv6Unspecified() && ip != netip.IPv6Loopback():
		return []netip.Addr{low}
	case nat64.Contains(ip):
		return []netip.Addr{low}
	case b[0] == 0x20 && b[1] == 0x02:
		return []netip.Addr{netip.AddrFrom4([4]byte(b[2:6]))}
	case b[0] == 0x20 && b[1] == 0x01 && b[2] == 0 && b[3] == 0:
		client := [4]byte{^b[12], ^b[13], ^b[14], ^b[15]}
		return []netip.Addr{netip.AddrFrom4([4]byte(b[4:8])), netip.AddrFrom4(client)}
	}
	return nil
}

// Control is a net.Dialer Control: it sees the resolved address of each connection.
func (g Guard) Control(network, address string, _ syscall.RawConn) error {
	if g.AllowPrivate {
		return nil
	}
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return &refusal{why: "not a host and port"}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return &refusal{why: "not an IP address"}
	}
	return g.Check(ip)
}
