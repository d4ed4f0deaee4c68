package tests

import (
	"context"
	"os"
	"sort"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"

	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// statementCounter counts the statements a pgx connection sends (BEGIN and COMMIT
// included): after the first use of a statement, each is one round trip.
type statementCounter struct{ n atomic.Int64 }

func (c *statementCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, _ pgx.TraceQueryStartData) context.Context {
	c.n.Add(1)
	return ctx
}

func (c *statementCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// countedPostgres opens dbURL with every statement counted.
func countedPostgres(t *testing.T, dbURL string) (*sqldb.DB, *statementCounter) {
	t.Helper()
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	c := &statementCounter{}
	cfg.Tracer = c
	x := sqlx.NewDb(stdlib.OpenDB(*cfg), "pgx")
	x.SetMaxOpenConns(1)
	t.Cleanup(func() { x.Close() })
	return sqldb.FromPostgres(x), c
}

// On PostgreSQL a gated claim is one statement, whatever it takes: a rate-limited
// endpoint's slots (its room's worth, 1/rate apart, each claim going on where the last
// stopped), an ordered endpoint's head (nothing more while it is leased), and both at once.
func TestWebhookGatedClaimIsOneStatementOnPostgres(t *testing.T) {
	testenv.Parallel(t)
	if os.Getenv(testenv.PostgresURLVar) == "" {
		testenv.SkipSuite(t, "gated claim round trips", testenv.PostgresURLVar+" is not set", "set "+testenv.PostgresURLVar)
	}
	dbURL := testenv.NewPostgresURL(t)
	env := testenv.StartWebhooks(t, dbURL, nil)
	ws := env.CreateWorkspace(t, "Academy")
	paced := createPacedWebhook(t, env, ws, "https://example.com/paced", map[string]any{"rateLimit": 500})
	ordered := createPacedWebhook(t, env, ws, "https://example.com/ordered", map[string]any{"ordered": true})
	fanOut(t, env, syntheticEvents(ws, 100)...)

	db, counted := countedPostgres(t, dbURL)
	gates := sqlwebhooks.NewGates(db, noSealer{})
	room := webhooks.Room{PerEndpoint: 16}
	ctx := context.Background()
	now := testenv.Epoch.Add(time.Second)
	claim := func(token string) []webhooks.Lease {
		t.Helper()
		before := counted.n.Load()
		leases, err := gates.ClaimGated(ctx, now, now.Add(30*time.Second), token, 64, room, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if n := counted.n.Load() - before; n != 1 {
			t.Fatalf("claim %s: %d statements, want 1", token, n)
		}
		return leases
	}
	first := map[string]int{}
	for _, l := range claim("first") {
		first[l.Endpoint.ID]++
	}
	if first[paced] != 16 || first[ordered] != 1 {
		t.Fatalf("first claim took %v; want 16 of the paced endpoint (its room) and the ordered one's head", first)
	}
	var slots []time.Time
	for i := range 5 {
		leases := claim("c" + string(rune('0'+i)))
		per := map[string]int{}
		for _, l := range leases {
			per[l.Endpoint.ID]++
			if l.Endpoint.ID == paced {
				slots = append(slots, l.NotBefore)
			}
		}
		if per[paced] != 16 || per[ordered] != 0 {
			t.Fatalf("claim %d took %v; want 16 of the paced endpoint (its room) and none of the ordered one (its head is leased)", i, per)
		}
	}
	// The first claim's 16 slots came first: the next ones go on 2 ms apart, from +32 ms.
	step := 2 * time.Millisecond
	for i, s := range slots {
		if want := now.Add(time.Duration(16+i) * step); !s.Equal(want) {
			t.Fatalf("slot %d at %v, want %v (1/500 s apart, going on from the last claim's)", i, s.Sub(now), want.Sub(now))
		}
	}
	// With room for 1000, the claim takes what is left of the paced endpoint's 100 (its
	// second's 500 slots are not all taken).
	room.PerEndpoint = 1000
	if n := len(claim("rest")); n != 100-96 {
		t.Fatalf("claim with room for 1000: %d leases, want the 4 deliveries left", n)
	}
	t.Logf("7 claims, one statement each; the paced endpoint's slots 2 ms apart across them")
}

// A backlog of 1,500 deliveries to an endpoint limited to 500/s, sent by the running
// dispatcher (Run, as `serve` does) to a real receiver: every one arrives once, and the
// limit is held. The claim keeps up with several hundred a second; the rate it reached
// is logged (a loaded machine reaches less, never more than the limit).
func TestWebhookGatedEndpointDrainsAtItsRateLimit(t *testing.T) {
	testenv.Serial(t, "measures a rate: a machine busy with other tests sends unevenly")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		const n, rate = 1500, 500
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		createPacedWebhook(t, env, ws, rc.URL, map[string]any{"rateLimit": rate})
		fanOut(t, env, syntheticEvents(ws, n)...)
		realTime(t, env)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() { defer close(done); env.Dispatcher.Run(stop) }()
		deadline := time.Now().Add(60 * time.Second)
		for len(rc.Got()) < n && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		close(stop)
		<-done
		got := rc.Got()
		seen := map[string]bool{}
		at := make([]time.Time, 0, len(got))
		for _, r := range got {
			seen[r.Header.Get("X-SVC-Delivery")] = true
			at = append(at, r.At)
		}
		if len(got) != n || len(seen) != n {
			t.Fatalf("%d requests for %d deliveries in 60 s, want %d each", len(got), len(seen), n)
		}
		sort.Slice(at, func(i, j int) bool { return at[i].Before(at[j]) })
		worst := 0
		for i := range at {
			k := sort.Search(len(at), func(j int) bool { return !at[j].Before(at[i].Add(time.Second)) }) - i
			worst = max(worst, k)
		}
		// Slots are 1/rate apart; a send held up past its slot (a stalled machine) goes with
		// the next ones, so a second may see the dispatcher's per-endpoint room more.
		if limit := rate + 1 + adapterwebhooks.DefaultLimits.PerEndpoint; worst > limit {
			t.Fatalf("%d requests within one second, limit %d (+1, +%d held up)", worst, rate, adapterwebhooks.DefaultLimits.PerEndpoint)
		}
		span := at[len(at)-1].Sub(at[0])
		t.Logf("%d deliveries in %v: %.0f/s (limit %d/s), at most %d within a second", n, span.Round(time.Millisecond),
			float64(n-1)/span.Seconds(), rate, worst)
	})
}
