package ratelimit

import (
	"context"
	"net/netip"
)

// The allowance of requests that fail authentication, per listener and client
// address: the default key quota, generous for a client with a typo, and a bound of
// 1,000 guesses a day for an attacker (keys carry about 190 random bits).
const (
	FailedAuthPerMinute = 60
	FailedAuthPerDay    = 1000
)

// Listener names a listener whose failed authentications have a budget of their own,
// so that wrong API keys never lock a client out of the operator API (the two often
// share an address behind one proxy) and the other way round.
type Listener string

// The two listeners that authenticate.
const (
	PublicListener   Listener = "api"
	OperatorListener Listener = "operator"
)

// FailedAuthBudget is one listener's allowance of failed authentications per client
// address.
type FailedAuthBudget struct {
	limiter *Limiter
	prefix  string
}

// FailedAuth returns the budget of listener. The public API's subjects keep the bare
// "ip:" prefix so that counters written before the split stay in force.
func (l *Limiter) FailedAuth(listener Listener) FailedAuthBudget {
	prefix := ""
	if listener != PublicListener {
		prefix = string(listener) + ":"
	}
	return FailedAuthBudget{limiter: l, prefix: prefix}
}

// AnyBlocked tells whether any client is blocked on this instance (any listener): when
// none is, Blocked need not be asked, nor the client's address named.
func (b FailedAuthBudget) AnyBlocked() bool { return !b.limiter.blocked.empty() }

// Blocked tells whether the client at ip has exhausted this budget on this instance.
// While it has, a request carrying an unchecked secret is refused before the secret
// is looked at: answering 401 to wrong keys with 429 and 200 to a right one would
// still reveal a guessed key.
func (b FailedAuthBudget) Blocked(ip string) (Decision, bool) {
	return b.limiter.blocked.get(b.prefix+clientSubject(ip), b.limiter.clock.Now())
}

// Take counts one failed authentication of the client at ip, or refuses it (and
// blocks the client until the exhausted bucket resets) when the allowance is used.
func (b FailedAuthBudget) Take(ctx context.Context, ip string) (Decision, error) {
	subject := b.prefix + clientSubject(ip)
	d, err := b.limiter.take(ctx, subject, Quota{PerMinute: FailedAuthPerMinute, PerDay: FailedAuthPerDay})
	if err == nil && !d.Allowed {
		b.limiter.blocked.add(subject, d)
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
