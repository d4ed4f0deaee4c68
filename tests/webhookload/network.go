package main

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/jmoiron/sqlx"
	"github.com/rs/zerolog"
)

// network puts a simulated network between each instance and PostgreSQL and each NATS
// node (-network): a Toxiproxy proxy per (instance, upstream) in this process, with a
// latency toxic each way, so that one instance can be cut off (every proxy of its own
// stopped: its connections closed, new ones refused; or, silent, every byte dropped) while
// the others keep theirs. The driver and the receiver talk to the instances directly (a
// load balancer, the receivers' internet), and the bench reads PostgreSQL directly.
type network struct {
	server  *toxiproxy.ApiServer
	latency time.Duration
	silent  bool // cut: drop the bytes and keep the connections instead of closing them
	mu      sync.Mutex
	proxies map[int][]*toxiproxy.Proxy // instance -> its proxies
}

func newNetwork(latency time.Duration, silent bool) *network {
	return &network{
		server:  toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop()),
		latency: latency,
		silent:  silent,
		proxies: map[int][]*toxiproxy.Proxy{},
	}
}

// route starts a proxy of instance i to upstream (host:port) and returns its address.
func (n *network) route(i int, upstream string) (string, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	p := toxiproxy.NewProxy(n.server, fmt.Sprintf("i%d-%d", i, len(n.proxies[i])), "127.0.0.1:0", upstream)
	if err := p.Start(); err != nil {
		return "", fmt.Errorf("toxiproxy to %s: %w", upstream, err)
	}
	if ms := n.latency.Milliseconds(); ms > 0 {
		for _, dir := range []string{"upstream", "downstream"} {
			toxic := fmt.Sprintf(`{"type":"latency","stream":%q,"attributes":{"latency":%d}}`, dir, ms)
			if _, err := p.Toxics.AddToxicJson(strings.NewReader(toxic)); err != nil {
				p.Stop()
				return "", fmt.Errorf("toxiproxy latency: %w", err)
			}
		}
	}
	n.proxies[i] = append(n.proxies[i], p)
	return p.Listen, nil
}

// instance rewrites instance i's database URL and broker list to go through proxies.
func (n *network) instance(i int, dbURL string, env []string) (string, []string, error) {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "", nil, err
	}
	if u.Host, err = n.route(i, u.Host); err != nil {
		return "", nil, err
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if list, ok := strings.CutPrefix(kv, "CREATORAPI_EVENTS_BROKER="); ok {
			var routed []string
			for _, node := range strings.Split(list, ",") {
				nu, err := url.Parse(node)
				if err != nil {
					return "", nil, err
				}
				if nu.Host, err = n.route(i, nu.Host); err != nil {
					return "", nil, err
				}
				routed = append(routed, nu.String())
			}
			kv = "CREATORAPI_EVENTS_BROKER=" + strings.Join(routed, ",")
		}
		out = append(out, kv)
	}
	return u.String(), out, nil
}

// cut cuts instance i off: closed stops its proxies (connections closed, new ones
// refused), silent adds Toxiproxy's timeout toxic (timeout 0) to both streams of each: the
// connections stay open, new ones are accepted, and every byte is dropped, so that only
// the instance's and its peers' own timeouts tell (a switch that died). heal starts the
// proxies again on the same ports, or removes the toxics: that closes the silenced
// connections (their streams lost bytes), as a switch back after a TCP timeout would.
func (n *network) cut(i int) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.proxies[i] {
		if !n.silent {
			p.Stop()
			continue
		}
		for _, dir := range []string{"upstream", "downstream"} {
			toxic := fmt.Sprintf(`{"name":"silent_%s","type":"timeout","stream":%q,"attributes":{"timeout":0}}`, dir, dir)
			if _, err := p.Toxics.AddToxicJson(strings.NewReader(toxic)); err != nil {
				return fmt.Errorf("toxiproxy silence %s: %w", p.Name, err)
			}
		}
	}
	return nil
}

func (n *network) heal(i int) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, p := range n.proxies[i] {
		if !n.silent {
			if err := p.Start(); err != nil {
				return fmt.Errorf("toxiproxy restart %s: %w", p.Name, err)
			}
			continue
		}
		for _, dir := range []string{"upstream", "downstream"} {
			if err := p.Toxics.RemoveToxic(context.Background(), "silent_"+dir); err != nil {
				return fmt.Errorf("toxiproxy unsilence %s: %w", p.Name, err)
			}
		}
	}
	return nil
}

func (n *network) close() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, ps := range n.proxies {
		for _, p := range ps {
			p.Stop()
		}
	}
}

// cutResult is what a cut-off instance's 10 s cost: how long until every (consumer,
// partition) pair it held had a live lease of another instance, and the webhooks'
// losses and duplicates over the phase.
type cutResult struct {
	pairs      int           // pairs the instance held when cut
	handover   time.Duration // until the last of them was held by another; -1: never within the cut
	rejoined   time.Duration // after the heal, until the instance held pairs again; -1: not within the phase
	duplicates int           // deliveries the receiver got again (same event id)
	lost       int           // accepted requests whose webhook never came
	unanswered int           // refused requests whose change committed (the answer was lost)
	refused    int           // requests that failed (most sent to the cut-off instance)
}

// leaseOwners maps each live pair (consumer/part) to its owner.
func leaseOwners(ctx context.Context, db *sqlx.DB) (map[string]string, error) {
	var rows []struct {
		Pair  string `db:"pair"`
		Owner string `db:"owner"`
	}
	if err := db.SelectContext(ctx, &rows, `SELECT consumer || '/' || part AS pair, owner FROM event_leases
		WHERE owner <> '' AND expires_at >= now() AND parts = (SELECT parts FROM event_layout)`); err != nil {
		return nil, fmt.Errorf("lease owners: %w", err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Pair] = r.Owner
	}
	return out, nil
}

// ownedBy tells whether a lease owner (host:pid:…) is the process pid.
func ownedBy(owner string, pid int) bool {
	parts := strings.Split(owner, ":")
	return len(parts) >= 2 && parts[1] == fmt.Sprint(pid)
}

// watchCut cuts instance victim off at `at` for `length`, and follows the leases every
// 50 ms: when the pairs it held are all held by others, and when it holds some again.
func watchCut(ctx context.Context, net *network, db *sqlx.DB, victim int, pid int, at, length, until time.Duration) (cutResult, error) {
	res := cutResult{handover: -1, rejoined: -1}
	time.Sleep(at)
	before, err := leaseOwners(ctx, db)
	if err != nil {
		return res, err
	}
	held := map[string]bool{}
	for pair, owner := range before {
		if ownedBy(owner, pid) {
			held[pair] = true
		}
	}
	res.pairs = len(held)
	if err := net.cut(victim); err != nil {
		return res, err
	}
	cutAt := time.Now()
	mode := "closed"
	if net.silent {
		mode = "silent"
	}
	fmt.Printf("webhookload: cut instance %d (pid %d, %d pairs) off PostgreSQL and NATS (%s) at %s UTC for %v\n", victim, pid, len(held), mode, cutAt.UTC().Format("15:04:05.000"), length)
	healed := false
	var healAt time.Time
	for time.Since(cutAt) < until {
		if !healed && time.Since(cutAt) >= length {
			if err := net.heal(victim); err != nil {
				return res, err
			}
			healed, healAt = true, time.Now()
		}
		owners, err := leaseOwners(ctx, db)
		if err != nil {
			return res, err
		}
		if res.handover < 0 && !healed {
			done := true
			for pair := range held {
				if o, ok := owners[pair]; !ok || ownedBy(o, pid) {
					done = false
				}
			}
			if done {
				res.handover = time.Since(cutAt).Round(10 * time.Millisecond)
			}
		}
		if healed && res.rejoined < 0 && res.handover >= 0 {
			for _, o := range owners {
				if ownedBy(o, pid) {
					res.rejoined = time.Since(healAt).Round(10 * time.Millisecond)
					break
				}
			}
		}
		if healed && (res.rejoined >= 0 || res.handover < 0) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !healed {
		return res, net.heal(victim)
	}
	return res, nil
}
