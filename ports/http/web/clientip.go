package web

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/pires/go-proxyproto"
)

// Client address modes (CREATORAPI_CLIENT_IP).
const (
	ClientIPDirect        = "direct"          // the socket's peer
	ClientIPForwardedFor  = "x-forwarded-for" // X-Forwarded-For, from trusted proxies
	ClientIPForwarded     = "forwarded"       // RFC 7239 Forwarded, from trusted proxies
	ClientIPProxyProtocol = "proxy-protocol"  // the PROXY protocol header, from trusted proxies
)

// ClientAddresses decides which address a request comes from: the one the failed-auth
// limits count, the audit log records and the request log names (ClientIP). Headers are
// believed only from trusted proxies and read right to left, skipping trusted proxies:
// each proxy appends the peer it saw, so the right-most entry not a proxy of ours is the
// first one a client could not have forged.
type ClientAddresses struct {
	Mode    string         // CREATORAPI_CLIENT_IP
	Trusted []netip.Prefix // CREATORAPI_TRUSTED_PROXIES; empty: trust none
}

// LoadClientAddresses reads CREATORAPI_CLIENT_IP and CREATORAPI_TRUSTED_PROXIES.
func LoadClientAddresses(get func(name, def string) string) (ClientAddresses, error) {
	a := ClientAddresses{Mode: strings.ToLower(get("CREATORAPI_CLIENT_IP", ClientIPDirect))}
	switch a.Mode {
	case ClientIPDirect, ClientIPForwardedFor, ClientIPForwarded, ClientIPProxyProtocol:
	default:
		return a, fmt.Errorf("CREATORAPI_CLIENT_IP must be direct, x-forwarded-for, forwarded or proxy-protocol")
	}
	for _, s := range strings.Split(get("CREATORAPI_TRUSTED_PROXIES", ""), ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			addr, aerr := netip.ParseAddr(s) // a lone address is its own /32 or /128
			if aerr != nil {
				return a, fmt.Errorf("CREATORAPI_TRUSTED_PROXIES: %q is not a CIDR such as 10.0.0.0/8: %w", s, err)
			}
			p = netip.PrefixFrom(addr.Unmap(), addr.Unmap().BitLen())
		}
		a.Trusted = append(a.Trusted, p.Masked())
	}
	if a.Mode != ClientIPDirect && len(a.Trusted) == 0 {
		return a, fmt.Errorf("CREATORAPI_CLIENT_IP=%s needs CREATORAPI_TRUSTED_PROXIES (the proxies' CIDRs)", a.Mode)
	}
	return a, nil
}

func (a ClientAddresses) trusted(ip netip.Addr) bool {
	ip = ip.Unmap()
	for _, p := range a.Trusted {
		if p.Contains(ip) {
			return true
		}
	}
	return false
}

// Resolve gives the client's address for a request from peer carrying the given
// X-Forwarded-For and Forwarded header values (every line of each, in order).
func (a ClientAddresses) Resolve(peer netip.Addr, xff, forwarded []string) netip.Addr {
	peer = peer.Unmap()
	if !a.trusted(peer) {
		return peer
	}
	var hops []string
	switch a.Mode {
	case ClientIPForwardedFor:
		for _, line := range xff {
			hops = append(hops, strings.Split(line, ",")...)
		}
	case ClientIPForwarded:
		for _, line := range forwarded {
			hops = append(hops, forwardedFors(line)...)
		}
	default: // direct, or proxy-protocol where the connection already carries the client's address
		return peer
	}
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		hop, ok := parseHop(hops[i])
		if !ok {
			return client // unparseable ("unknown", obfuscated): the nearest hop we know
		}
		client = hop
		if !a.trusted(hop) {
			return hop
		}
	}
	return client
}

// forwardedFors returns the for= values of one Forwarded line's elements, in order.
func forwardedFors(line string) []string {
	var fors []string
	for _, element := range splitOutsideQuotes(line, ',') {
		found := ""
		for _, pair := range splitOutsideQuotes(element, ';') {
			k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "for") {
				found = strings.Trim(strings.TrimSpace(v), `"`)
			}
		}
		fors = append(fors, found) // an element without for= is an unknown hop
	}
	return fors
}

func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '"':
			quoted = !quoted
		case s[i] == sep && !quoted:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// parseHop reads "192.0.2.1", "192.0.2.1:4711", "2001:db8::1" or "[2001:db8::1]:4711".
func parseHop(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	if ip, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil && ip.Zone() == "" {
		return ip.Unmap(), true
	}
	return netip.Addr{}, false
}

type clientIPKey struct{}

// Middleware resolves each request's client address once (ClientIP reads it). Only the
// header modes need it: direct and the PROXY protocol give the socket's peer, which
// ClientIP reads itself, so they cost the request nothing.
func (a ClientAddresses) Middleware() fiber.Handler {
	if a.Mode != ClientIPForwardedFor && a.Mode != ClientIPForwarded {
		return func(c *fiber.Ctx) error { return c.Next() }
	}
	return func(c *fiber.Ctx) error {
		peer := socketAddr(c)
		var xff, fwd []string
		c.Request().Header.VisitAll(func(k, v []byte) {
			switch {
			case strings.EqualFold(string(k), fiber.HeaderXForwardedFor):
				xff = append(xff, string(v))
			case strings.EqualFold(string(k), "Forwarded"):
				fwd = append(fwd, string(v))
			}
		})
		c.Locals(clientIPKey{}, a.Resolve(peer, xff, fwd).String())
		return c.Next()
	}
}

// ClientIP is the request's client address: the one function the failed-auth limits,
// the audit log and the request log take it from. Without the middleware (the operator
// listener) it is the socket's peer; never fiber's c.IP() reading headers.
func ClientIP(c *fiber.Ctx) string {
	if ip, ok := c.Locals(clientIPKey{}).(string); ok {
		return ip
	}
	return socketAddr(c).String()
}

func socketAddr(c *fiber.Ctx) netip.Addr {
	if tcp, ok := c.Context().RemoteAddr().(*net.TCPAddr); ok {
		if ip, ok := netip.AddrFromSlice(tcp.IP); ok {
			return ip.Unmap()
		}
	}
	return netip.IPv4Unspecified()
}

// ProxyProtocol wraps a listener so that trusted peers must open each connection with a
// PROXY protocol header (v1 or v2), whose source becomes the connection's remote address,
// and other peers are refused if they send one (their socket address stands).
func (a ClientAddresses) ProxyProtocol(ln net.Listener) net.Listener {
	return &proxyproto.Listener{Listener: ln, ReadHeaderTimeout: 10 * time.Second,
		ConnPolicy: func(o proxyproto.ConnPolicyOptions) (proxyproto.Policy, error) {
			if tcp, ok := o.Upstream.(*net.TCPAddr); ok {
				if ip, ok := netip.AddrFromSlice(tcp.IP); ok && a.trusted(ip) {
					return proxyproto.REQUIRE, nil
				}
			}
			return proxyproto.REJECT, nil
		}}
}
