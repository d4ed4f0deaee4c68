package ratelimit

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// countedRows counts an instance's writes of the shared rows: claims (update) and
// hand-backs outside a claim (settle).
type countedRows struct {
	leaseRows
	claims, settles *atomic.Int64
}

func (c countedRows) update(ctx context.Context, subject string, change func(r *counterRow)) error {
	c.claims.Add(1)
	return c.leaseRows.update(ctx, subject, change)
}

func (c countedRows) settle(ctx context.Context, subject string, b block) error {
	c.settles.Add(1)
	return c.leaseRows.settle(ctx, subject, b)
}

// A key far from its limit, its requests spread over three instances, each seeing a
// couple of requests per block lifetime: every block ends partly used, and its unused
// part goes back in the update of that instance's next claim, not in a write of its own
// (the hand-backs were as many writes as the claims: 0.6 writes a request at three
// instances under the load bench). Closing still hands every block back.
func TestBlocksFarFromTheLimitGoBackWithTheNextClaim(t *testing.T) {
	ctx := context.Background()
	var claims, settles atomic.Int64
	var stores []*Leased
	const lifetime = 40 * time.Millisecond
	dbs := sharedSQLite(t, 3)
	first := dbs[0]
	for _, db := range dbs {
		rows := &databaseRows{Prepared: prepareLeaseStatements(db)}
		stores = append(stores, newLeased(countedRows{leaseRows: rows, claims: &claims, settles: &settles}, lifetime))
	}
	w := ratelimit.WindowsAt(time.Date(2026, 11, 27, 0, 0, 10, 0, time.UTC))
	q := ratelimit.Quota{PerMinute: 1_000_000, PerDay: 1_000_000}
	const requests = 90 // one every 7 ms, round-robin: two per lifetime on each instance
	for i := range requests {
		if _, ok, err := stores[i%3].Take(ctx, "key:k", w, q); err != nil || !ok {
			t.Fatalf("request %d: admitted %v, %v", i+1, ok, err)
		}
		time.Sleep(7 * time.Millisecond)
	}
	c, s := claims.Load(), settles.Load()
	if c < requests/8 {
		t.Fatalf("%d claims for %d requests: the blocks outlived their lifetime", c, requests)
	}
	if s > c/4 {
		t.Fatalf("%d hand-backs of their own beside %d claims for %d requests, want the claims to carry them", s, c, requests)
	}
	for _, st := range stores {
		if err := st.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var leased, claimed int
	if err := first.Reader.QueryRowxContext(ctx, `SELECT minute_leased, minute_count FROM rate_limit_counters WHERE subject = 'key:k'`).Scan(&leased, &claimed); err != nil {
		t.Fatal(err)
	}
	if leased != 0 || claimed != requests {
		t.Fatalf("after all closed: %d leased, %d claimed; want 0 and %d", leased, claimed, requests)
	}
	t.Logf("%d requests over three instances: %d claims, %d hand-backs of their own", requests, c, s)
}
