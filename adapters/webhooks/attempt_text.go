package webhooks

import (
	"crypto/x509"
	"errors"
	"net"
	"regexp"
	"strings"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// What an attempt log line may carry. The log is shown to the workspace's people (operator
// API, dashboard), so it names the failure, never an address of our network (a resolver's,
// or what the target's name resolved to); and it is stored as text on both databases, so it
// is valid UTF-8 without NUL or control characters, whatever the receiver sent.

// printable turns bytes from outside (a response body, a Location header) into text both
// databases store (sqldb.Text).
func printable(s string) string { return sqldb.Text(s) }

// addressPattern finds IPv4 and IPv6 addresses, with or without a port.
var addressPattern = regexp.MustCompile(`\[?(?:[0-9a-fA-F]{0,4}:){2,7}[0-9a-fA-F]{0,4}(?:%[\w.]+)?\]?(?::\d+)?|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b`)

// networkError describes a failed connection without the addresses it involved:
// "dial tcp 10.0.0.1:443: connect: connection refused" becomes "connect: connection
// refused", "lookup hooks.example on 10.0.0.2:53: no such host" becomes "DNS lookup of
// hooks.example failed: no such host".
func networkError(err error) string {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		why := dnsErr.Err
		if dnsErr.IsNotFound {
			why = "no such host"
		}
		return "DNS lookup of " + printable(dnsErr.Name) + " failed: " + why
	}
	var hostErr x509.HostnameError
	if errors.As(err, &hostErr) {
		return "TLS: " + withoutAddresses(hostErr.Error())
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		inner := opErr.Err.Error()
		if opErr.Op == "dial" {
			return "connect: " + withoutAddresses(strings.TrimPrefix(inner, "connect: "))
		}
		return opErr.Op + ": " + withoutAddresses(inner)
	}
	return withoutAddresses(err.Error())
}

// withoutAddresses replaces every IP address (and port) in s with "[address]".
func withoutAddresses(s string) string {
	return printable(addressPattern.ReplaceAllStringFunc(s, func(m string) string {
		if strings.Count(m, ":") == 1 && !strings.Contains(m, ".") {
			return m // "connect: x", a time, not an address
		}
		return "[address]"
	}))
}
