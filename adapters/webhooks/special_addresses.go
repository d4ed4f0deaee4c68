package webhooks

import "net/netip"

// The IANA special-purpose address registries, written out as data:
//   - IANA IPv4 Special-Purpose Address Registry
//     https://www.iana.org/assignments/iana-ipv4-special-registry
//   - IANA IPv6 Special-Purpose Address Registry
//     https://www.iana.org/assignments/iana-ipv6-special-registry
//
// Transcribed on 2026-11-22 from the registries as published in 2025 (the newest entries:
// 3fff::/20, RFC 9637; 5f00::/16, RFC 9602; 2001:1::3/128, RFC 9665; 100:0:0:1::/64,
// RFC 9780). This machine cannot reach iana.org: when the registries change, compare this
// table with them and add the new rows (TestGuardRefusesEveryRegistryEntry covers each row).
//
// Reachable is the registry's "Globally Reachable" column: "true", "false" or "n/a".

type specialEntry struct {
	Prefix    netip.Prefix
	Name      string
	RFC       string
	Reachable string
}

func entry(prefix, name, rfc, reachable string) specialEntry {
	return specialEntry{Prefix: netip.MustParsePrefix(prefix), Name: name, RFC: rfc, Reachable: reachable}
}

var ipv4Special = []specialEntry{
	entry("0.0.0.0/8", "\"This network\"", "RFC 791", "false"),
	entry("0.0.0.0/32", "\"This host on this network\"", "RFC 1122", "false"),
	entry("10.0.0.0/8", "Private-Use", "RFC 1918", "false"),
	entry("100.64.0.0/10", "Shared Address Space", "RFC 6598", "false"),
	entry("127.0.0.0/8", "Loopback", "RFC 1122", "false"),
	entry("169.254.0.0/16", "Link Local", "RFC 3927", "false"),
	entry("172.16.0.0/12", "Private-Use", "RFC 1918", "false"),
	entry("192.0.0.0/24", "IETF Protocol Assignments", "RFC 6890", "false"),
	entry("192.0.0.0/29", "IPv4 Service Continuity Prefix", "RFC 7335", "false"),
	entry("192.0.0.8/32", "IPv4 dummy address", "RFC 7600", "false"),
	entry("192.0.0.9/32", "Port Control Protocol Anycast", "RFC 7723", "true"),
	entry("192.0.0.10/32", "Traversal Using Relays around NAT Anycast", "RFC 8155", "true"),
	entry("192.0.0.170/32", "NAT64/DNS64 Discovery", "RFC 8880", "false"),
	entry("192.0.0.171/32", "NAT64/DNS64 Discovery", "RFC 8880", "false"),
	entry("192.0.2.0/24", "Documentation (TEST-NET-1)", "RFC 5737", "false"),
	entry("192.31.196.0/24", "AS112-v4", "RFC 7535", "true"),
	entry("192.52.193.0/24", "AMT", "RFC 7450", "true"),
	entry("192.88.99.0/24", "Deprecated (6to4 Relay Anycast)", "RFC 7526", "n/a"),
	entry("192.168.0.0/16", "Private-Use", "RFC 1918", "false"),
	entry("192.175.48.0/24", "Direct Delegation AS112 Service", "RFC 7534", "true"),
	entry("198.18.0.0/15", "Benchmarking", "RFC 2544", "false"),
	entry("198.51.100.0/24", "Documentation (TEST-NET-2)", "RFC 5737", "false"),
	entry("203.0.113.0/24", "Documentation (TEST-NET-3)", "RFC 5737", "false"),
	entry("240.0.0.0/4", "Reserved", "RFC 1112", "false"),
	entry("255.255.255.255/32", "Limited Broadcast", "RFC 8190", "false"),
}

var ipv6Special = []specialEntry{
	entry("::1/128", "Loopback Address", "RFC 4291", "false"),
	entry("::/128", "Unspecified Address", "RFC 4291", "false"),
	entry("::ffff:0:0/96", "IPv4-mapped Address", "RFC 4291", "false"),
	entry("64:ff9b::/96", "IPv4-IPv6 Translat.", "RFC 6052", "true"),
	entry("64:ff9b:1::/48", "IPv4-IPv6 Translat.", "RFC 8215", "false"),
	entry("100::/64", "Discard-Only Address Block", "RFC 6666", "false"),
	entry("100:0:0:1::/64", "Dummy IPv6 Prefix", "RFC 9780", "false"),
	entry("2001::/23", "IETF Protocol Assignments", "RFC 2928", "false"),
	entry("2001::/32", "TEREDO", "RFC 4380", "n/a"),
	entry("2001:1::1/128", "Port Control Protocol Anycast", "RFC 7723", "true"),
	entry("2001:1::2/128", "Traversal Using Relays around NAT Anycast", "RFC 8155", "true"),
	entry("2001:1::3/128", "DNS-SD Service Registration Protocol Anycast", "RFC 9665", "true"),
	entry("2001:2::/48", "Benchmarking", "RFC 5180", "false"),
	entry("2001:3::/32", "AMT", "RFC 7450", "true"),
	entry("2001:4:112::/48", "AS112-v6", "RFC 7535", "true"),
	entry("2001:10::/28", "Deprecated (previously ORCHID)", "RFC 4843", "n/a"),
	entry("2001:20::/28", "ORCHIDv2", "RFC 7343", "true"),
	entry("2001:30::/28", "Drone Remote ID Protocol Entity Tags (DETs) Prefix", "RFC 9374", "true"),
	entry("2001:db8::/32", "Documentation", "RFC 3849", "false"),
	entry("2002::/16", "6to4", "RFC 3056", "n/a"),
	entry("2620:4f:8000::/48", "Direct Delegation AS112 Service", "RFC 7534", "true"),
	entry("3fff::/20", "Documentation", "RFC 9637", "false"),
	entry("5f00::/16", "Segment Routing (SRv6) SIDs", "RFC 9602", "false"),
	entry("fc00::/7", "Unique-Local", "RFC 4193", "false"),
	entry("fe80::/10", "Link-Local Unicast", "RFC 4291", "false"),
}

// Multicast lives in its own registries (IPv4 Multicast Address Space, IPv6 Multicast
// Address Space); a webhook is never sent to a group.
var multicast = []specialEntry{
	entry("224.0.0.0/4", "Multicast", "RFC 5771", "false"),
	entry("ff00::/8", "Multicast", "RFC 4291", "false"),
}

// globalUnicast is the only IPv6 space IANA allocates for global unicast (IPv6 Address
// Space registry); everything outside it (and not named above) is reserved.
var globalUnicast = netip.MustParsePrefix("2000::/3")

// mostSpecific returns the longest registry entry containing ip.
func mostSpecific(ip netip.Addr) (specialEntry, bool) {
	table := ipv6Special
	if ip.Is4() {
		table = ipv4Special
	}
	var best specialEntry
	found := false
	for _, tables := range [][]specialEntry{table, multicast} {
		for _, e := range tables {
			if e.Prefix.Contains(ip) && (!found || e.Prefix.Bits() > best.Prefix.Bits()) {
				best, found = e, true
			}
		}
	}
	return best, found
}
