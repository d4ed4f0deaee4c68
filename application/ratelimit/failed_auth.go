package ratelimit

import (
	"context"
	"net/netip"
)

// The allowance of requests that fail authentication, per client address: the
// default key quota, generous for a client with a typo, and a bound of 1,000 guesses
// a day for an attacker (keys carry about 190 random bits).
const (
	FailedAuthPerMinute = 60
	FailedAuthPerDay    = 1000
)

// FailedAuthBlocked tells whether the client at ip has exhausted its failed
// authentications on this instance. While it has, every request from it is refused
// before its key is looked at: answering 401 to wrong keys with 429 and 200 to a right
// one would still reveal a guessed key.
func (l *Limiter) FailedAuthBlocked(ip string) (Decision, bool) {
	return l.blocked.get(clientSubject(ip), l.clock.Now())
}

// TakeFailedAuth counts one failed authentication of the client at ip, or refuses it
// (and blocks the client until the exhausted bucket resets) when the allowance is used.
func (l *Limiter) TakeFailedAuth(ctx context.Context, ip string) (Decision, error) {
	subject := clientSubject(ip)
	d, err := l.take(ctx, subject, Quota{PerMinute: FailedAuthPerMinute, PerDay: FailedAuthPerDay})
	if err == nil && !d.Allowed {
		l.blocked.add(subject, d)
	}
	return d, err
}

// clientSubject names the bucket of a client address. An IPv6 client gets its /64,
// the block one subscriber holds, or one host could rotate addresses without end.
func clientSubject(ip string) string {
	addr, err := netip.ParseAddr(ip)
	if err != nil {
		return "ip:" + ip
	}
	addr = addr.Unmap()
	if addr.Is6() {
		prefix, _ := addr.Prefix(64)
		return "ip:" + prefix.String()
	}
	return "ip:" + addr.String()
}
