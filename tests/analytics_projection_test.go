package tests

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"reflect"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/ports/consumers"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The analytics projection equals a recomputation from the source tables after 1,000
// random operations; redelivering every event changes nothing; projections rebuild
// reproduces the same figures. On JetStream the transport is what is under test (the
// operation mix is the SQL runs', on both databases): 300 operations, two tenants
// interleaved, every event type many times over.
func TestAnalyticsProjectionMatchesTheSourceTables(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 operations and a built binary; skipped with -short")
	}
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		env := testenv.Start(t, dbURL, tr.Option)
		start := testenv.Epoch.AddDate(0, 0, -150)
		env.Clock.Set(start)
		w := newAnalyticsWorkload(t, env, "Academy")
		other := newAnalyticsWorkload(t, env, "Other") // interleaved: tenants never mix
		ops := 1000
		if tr.NATS() {
			ops = 300
		}
		for i := range ops {
			if i%10 == 9 {
				other.step(t)
			} else {
				w.step(t)
			}
		}
		env.WaitForConsumers(t)
		_, key := env.CreateKeyWithQuota(t, w.ws, 1_000_000, 1_000_000, "read:analytics")
		_, otherKey := env.CreateKeyWithQuota(t, other.ws, 1_000_000, 1_000_000, "read:analytics")
		windows := analyticsWindows(w.rng, start, env.Clock.Now())
		want := compareWithOracle(t, env, w.ws, key, windows)
		compareWithOracle(t, env, other.ws, otherKey, windows[:3])
		if s := summary(t, env, key, ""); s.AsOf != env.Clock.Now().UTC().Format(time.RFC3339Nano) {
			t.Fatalf("asOf %s of a caught-up projection, want now %s", s.AsOf, env.Clock.Now())
		}

		// Every event delivered again: the group is moved back to the start of the outbox
		// (its ledger kept), the router redelivers the whole stream, and nothing changes.
		// (On JetStream, TestEventsRedeliveryChangesNothing redelivers the stream.)
		if !tr.NATS() {
			rewindKeepingLedger(t, env.DB)
			env.WaitForConsumers(t)
			if got := compareWithOracle(t, env, w.ws, key, windows); !reflect.DeepEqual(got, want) {
				t.Fatalf("figures changed after redelivery")
			}
		}

		// projections rebuild (the built binary, while the service runs) gives the same figures.
		out := runCLI(t, dbURL, "projections", "rebuild")
		var res struct {
			Consumer        string
			Events, Applied int
		}
		mustJSON(t, out, &res)
		if res.Consumer != consumers.AnalyticsProjectionName || res.Events != len(env.OutboxEvents(t)) || res.Applied != res.Events {
			t.Fatalf("rebuild %s", out)
		}
		env.WaitForConsumers(t)
		if got := compareWithOracle(t, env, w.ws, key, windows); !reflect.DeepEqual(got, want) {
			t.Fatalf("figures changed after the rebuild")
		}
	})
}

// A service stopped while the projection is behind (mid-batch) and started again on the
// same database neither loses nor double counts an event.
func TestAnalyticsProjectionSurvivesAStopMidStream(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		env := testenv.Start(t, dbURL, tr.Option)
		start := testenv.Epoch.AddDate(0, 0, -40)
		env.Clock.Set(start)
		w := newAnalyticsWorkload(t, env, "Academy")
		_, key := env.CreateKeyWithQuota(t, w.ws, 1_000_000, 1_000_000, "read:analytics")
		w.run(t, 300)
		end := env.Clock.Now()
		behind := !env.CaughtUp(t, consumers.AnalyticsProjectionName)
		env.Stop(t) // drains: the acknowledged prefix commits, the rest comes again
		t.Logf("projection behind the outbox head when stopped: %v", behind)

		env2 := testenv.Start(t, dbURL, tr.Option)
		env2.WaitForConsumers(t)
		compareWithOracle(t, env2, w.ws, key, analyticsWindows(rand.New(rand.NewPCG(1, 2)), start, end))
	})
}

func summary(t *testing.T, env *testenv.Env, key, q string) summaryJSON {
	t.Helper()
	var s summaryJSON
	env.API(key).Get(t, "/api/v1/analytics/summary"+q).Expect(t, 200).Decode(t, &s)
	return s
}

// rewindKeepingLedger moves the analytics group back to the start of the outbox, as a
// lost offset would, without touching its processed-event ledger.
func rewindKeepingLedger(t *testing.T, db *sqldb.DB) {
	t.Helper()
	q := `UPDATE watermill_offsets_events SET offset_acked = 0 WHERE consumer_group = ?`
	if db.Dialect == sqldb.Postgres {
		q = `UPDATE watermill_offsets_events SET offset_acked = 0, last_processed_transaction_id = '0'::xid8 WHERE consumer_group = ?`
	}
	if _, err := db.Writer.ExecContext(context.Background(), db.Rebind(q), consumers.AnalyticsProjectionName); err != nil {
		t.Fatalf("rewind: %v", err)
	}
}

// runCLI runs the built binary against databaseURL and returns its stdout.
func runCLI(t *testing.T, databaseURL string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(testenv.Binary(t), args...)
	cmd.Env = append(os.Environ(), "CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+databaseURL, "CREATORAPI_ADMIN_TOKEN=cli-token-0123456789abcdef0123456789",
		fmt.Sprintf("CREATORAPI_EVENTS_PARTITIONS=%d", testenv.ServicePartitions), // the running service's layout
		"CREATORAPI_SECRET_KEY="+testenv.Config(t, databaseURL).SecretKey)         // the key the database was sealed with
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("creatorapi %v: %v\n%s", args, err, stderr.String())
	}
	return out
}
