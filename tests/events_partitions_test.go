package tests

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// publishTo commits one event of workspace ws.
func (a *eventsApp) publishTo(t testing.TB, ws, label string) {
	t.Helper()
	ev := events.New(events.StudentCreated, ws, map[string]string{"label": label})
	if err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error { return a.Pub.Publish(ctx, ev) }); err != nil {
		t.Fatalf("publish: %v", err)
	}
}

// outboxByWorkspace returns each workspace's event ids in stream order, keyed by the
// stored partition key (one per workspace here).
func (a *eventsApp) outboxByWorkspace(t testing.TB) map[int64][]string {
	t.Helper()
	order := `"offset"`
	if a.DB.Dialect == sqldb.Postgres {
		order = `transaction_id, "offset"`
	}
	var rows []struct {
		ID  string `db:"uuid"`
		Key int64  `db:"partition_key"`
	}
	if err := a.DB.Reader.Select(&rows, `SELECT uuid, partition_key FROM watermill_events ORDER BY `+order); err != nil {
		t.Fatalf("read outbox: %v", err)
	}
	out := map[int64][]string{}
	for _, r := range rows {
		out[r.Key] = append(out[r.Key], r.ID)
	}
	return out
}

// Changing the partition count of a running deployment (4 to 2): on PostgreSQL an
// instance with the new count joins while one with the old count runs and events keep
// coming (a rolling deploy); on SQLite, one instance restarts with the new count. Each
// event is applied once, each workspace's events in their order, and the new layout's
// positions start where the old layout had got to, not at the start of the stream.
func TestEventsPartitionCountChangeKeepsOrderAndPositions(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		const workspaces = 6
		var calls atomic.Int32
		var a, b *eventsApp
		current := func() *sqldb.DB {
			if b != nil {
				return b.DB
			}
			return a.DB
		}
		consumer := withConsumer(effectsConsumer("orderly", current, func(events.Envelope) error { calls.Add(1); return nil }))
		cfgA := testenv.Config(t, dbURL)
		cfgA.EventsPartitions = 4
		a = startEventsApp(t, cfgA, consumer)
		createEffects(t, a.DB)
		for i := range 5 {
			for w := range workspaces {
				a.publishTo(t, fmt.Sprintf("org_w%d", w), fmt.Sprintf("before-%d", i))
			}
		}
		eventually(t, "the old layout consumed everything", func() bool { return ackedAll(t, a, "orderly") })

		cfgB := testenv.Config(t, dbURL)
		cfgB.DatabaseURL, cfgB.EventsPartitions = cfgA.DatabaseURL, 2
		if a.DB.Dialect != sqldb.Postgres {
			a.stop(t) // SQLite: one instance, restarted with the new count
		}
		b = startEventsApp(t, cfgB, consumer)
		// The new layout's positions exist once an instance wins its pairs; the old
		// layout's are gone; none starts at the beginning of the stream.
		eventually(t, "the new layout's positions are seeded", func() bool {
			var n int
			if err := b.DB.Reader.Get(&n, `SELECT COUNT(*) FROM watermill_offsets_events WHERE consumer_group LIKE 'orderly/p%of2'`); err != nil {
				t.Fatal(err)
			}
			return n == 2
		})
		var rows []struct {
			Group string `db:"consumer_group"`
			Off   int64  `db:"offset_acked"`
		}
		if err := b.DB.Reader.Select(&rows, `SELECT consumer_group, COALESCE(offset_acked, 0) AS offset_acked FROM watermill_offsets_events WHERE consumer_group LIKE 'orderly%'`); err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Group != "orderly/p0of2" && r.Group != "orderly/p1of2" {
				t.Fatalf("position %s of the old layout is left", r.Group)
			}
			if r.Off == 0 {
				t.Fatalf("position %s starts at the beginning of the stream", r.Group)
			}
		}

		// Events keep coming through both instances while the change settles.
		var wg sync.WaitGroup
		for _, app := range []*eventsApp{a, b} {
			if app.app == nil {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 10 {
					for w := range workspaces {
						app.publishTo(t, fmt.Sprintf("org_w%d", w), fmt.Sprintf("during-%d", i))
					}
				}
			}()
		}
		wg.Wait()
		a.stop(t)
		eventually(t, "the new layout consumed everything", func() bool { return ackedAll(t, b, "orderly") })

		wantEachOnceInOrder(t, b, "orderly", workspaces, 0, int(calls.Load()))
	})
}

// On the JetStream transport the documented procedure is drained (docs/events.md,
// "Partition count"): every consumer caught up, every instance stopped, then started with
// the new count. The new layout's durable consumers read the stream from its start, and the
// ledger skips what the old layout applied: each event once, each workspace in order.
func TestEventsPartitionCountChangeOnJetStreamAfterADrain(t *testing.T) {
	testenv.Parallel(t)
	nats := testenv.UseNATS(t, testenv.NATSURL(t))
	dbURL := testenv.NewPostgresURL(t)
	const workspaces = 6
	var calls atomic.Int32
	var a, b *eventsApp
	current := func() *sqldb.DB {
		if b != nil {
			return b.DB
		}
		return a.DB
	}
	consumer := withConsumer(effectsConsumer("orderly", current, func(events.Envelope) error { calls.Add(1); return nil }))
	cfgA := testenv.Config(t, dbURL)
	cfgA.EventsPartitions = 4
	a = startEventsApp(t, cfgA, consumer, nats)
	createEffects(t, a.DB)
	for i := range 5 {
		for w := range workspaces {
			a.publishTo(t, fmt.Sprintf("org_w%d", w), fmt.Sprintf("before-%d", i))
		}
	}
	eventually(t, "the old layout consumed everything", func() bool { return ackedAll(t, a, "orderly") })
	a.stop(t)

	cfgB := testenv.Config(t, dbURL)
	cfgB.DatabaseURL, cfgB.EventsPartitions = cfgA.DatabaseURL, 2
	b = startEventsApp(t, cfgB, consumer, nats)
	for i := range 10 {
		for w := range workspaces {
			b.publishTo(t, fmt.Sprintf("org_w%d", w), fmt.Sprintf("after-%d", i))
		}
	}
	eventually(t, "the new layout consumed everything", func() bool { return ackedAll(t, b, "orderly") })

	wantEachOnceInOrder(t, b, "orderly", workspaces, 15*workspaces, int(calls.Load()))
}

// wantEachOnceInOrder checks that consumer applied every outbox event once, each
// workspace's in outbox order, over the given number of workspaces (and, when events is
// not 0, that many events), and that its handler ran once per event.
func wantEachOnceInOrder(t *testing.T, a *eventsApp, consumer string, workspaces, events, handled int) {
	t.Helper()
	applied := effectIDs(t, a.DB, consumer)
	byWorkspace := a.outboxByWorkspace(t)
	total := 0
	for key, want := range byWorkspace {
		total += len(want)
		mine := map[string]bool{}
		for _, id := range want {
			mine[id] = true
		}
		var got []string
		for _, id := range applied {
			if mine[id] {
				got = append(got, id)
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("workspace key %d: applied %d events out of order or twice (first difference at %d of %d)", key, len(got), firstDiff(got, want), len(want))
		}
	}
	if len(byWorkspace) != workspaces || (events != 0 && total != events) || len(applied) != total || handled != total {
		t.Fatalf("%d workspaces, %d events, %d applied, handler ran %d times", len(byWorkspace), total, len(applied), handled)
	}
}
