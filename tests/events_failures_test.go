package tests

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A poison event is retried, parked with its error, and the stream goes on; replaying it
// while the bug is still there keeps it parked; once "fixed", replay applies it once.
// Failed attempts leave no partial effect behind (each runs in a savepoint).
func TestEventsPoisonIsParkedAndReplayed(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		var poisonID atomic.Value
		poisonID.Store("")
		var failures atomic.Int32
		const failFirst = 5 // the router tries 4 times, one replay fails, the next succeeds
		var a *eventsApp
		flaky := func(ev events.Envelope) error {
			if ev.ID == poisonID.Load().(string) && failures.Add(1) <= failFirst {
				return errors.New("bug: cannot apply this event")
			}
			return nil
		}
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option,
			withRouterConfig(func(c *router.Config) { c.Backoff = time.Millisecond }),
			withConsumer(effectsConsumer("flaky", func() *sqldb.DB { return a.DB }, flaky)),
			withConsumer(effectsConsumer("healthy", func() *sqldb.DB { return a.DB }, nil)))
		createEffects(t, a.DB)

		a.publish(t, 3, "before")
		eventually(t, "the first events are applied", func() bool { return len(effectIDs(t, a.DB, "flaky")) == 3 })
		// The next event is the poison one; its id is read inside the publishing
		// transaction, so the consumer knows it before it can see the event.
		err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			if err := a.Pub.Publish(ctx, events.New(events.OrderPaid, "org_test", map[string]string{"label": "poison"})); err != nil {
				return err
			}
			var id string
			if err := a.DB.Write(ctx).GetContext(ctx, &id, `SELECT uuid FROM watermill_events ORDER BY "offset" DESC LIMIT 1`); err != nil {
				return err
			}
			poisonID.Store(id) // before commit: the consumer cannot see the event yet
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		poison := poisonID.Load().(string)
		a.publish(t, 2, "after")
		ids := a.outboxIDs(t)

		eventually(t, "the stream goes on past the poison event", func() bool { return len(effectIDs(t, a.DB, "flaky")) == 5 })
		eventually(t, "the healthy consumer applies everything", func() bool { return len(effectIDs(t, a.DB, "healthy")) == len(ids) })
		want := slices.DeleteFunc(slices.Clone(ids), func(id string) bool { return id == poison })
		if got := effectIDs(t, a.DB, "flaky"); !slices.Equal(got, want) {
			t.Fatalf("flaky applied %v, want %v (no partial effect of the poison event)", got, want)
		}
		if got := effectIDs(t, a.DB, "healthy"); !slices.Equal(got, ids) {
			t.Fatalf("healthy applied %v, want the whole stream %v", got, ids)
		}
		if n := failures.Load(); n != 4 {
			t.Fatalf("the poison event was tried %d times, want 4", n)
		}
		parked, err := a.Ledger.Failures(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		if len(parked) != 1 || parked[0].Consumer != "flaky" || parked[0].EventID != poison || parked[0].Attempts != 4 ||
			parked[0].EventType != string(events.OrderPaid) || parked[0].ReplayedAt != nil || parked[0].Error == "" {
			t.Fatalf("parked %+v", parked)
		}

		// Still broken: stays parked, the attempt is counted.
		res, err := a.Ledger.Replay(context.Background(), a.Router.Consumers(), "flaky", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Replayed || res[0].Error == "" {
			t.Fatalf("replay while broken: %+v", res)
		}
		if parked, _ = a.Ledger.Failures(context.Background(), "flaky"); parked[0].Attempts != 5 || parked[0].ReplayedAt != nil {
			t.Fatalf("after a failed replay: %+v", parked)
		}
		if n := len(effectIDs(t, a.DB, "flaky")); n != 5 {
			t.Fatalf("a failed replay left an effect: %d", n)
		}

		// Fixed (the handler now succeeds): applied once, marked replayed, nothing left to replay.
		if res, err = a.Ledger.Replay(context.Background(), a.Router.Consumers(), "", poison); err != nil || len(res) != 1 || !res[0].Replayed {
			t.Fatalf("replay after the fix: %+v, %v", res, err)
		}
		if got := effectIDs(t, a.DB, "flaky"); len(got) != 6 || got[5] != poison {
			t.Fatalf("after replay flaky applied %v", got)
		}
		if parked, _ = a.Ledger.Failures(context.Background(), "flaky"); parked[0].ReplayedAt == nil {
			t.Fatalf("not marked replayed: %+v", parked)
		}
		if res, err = a.Ledger.Replay(context.Background(), a.Router.Consumers(), "", ""); err != nil || len(res) != 0 {
			t.Fatalf("second replay: %+v, %v", res, err)
		}
	})
}

// Delivering the whole stream again (the offsets reset to zero; on NATS, the durable
// consumers deleted too) changes nothing: each
// consumer recorded what it applied in the same transaction as the effect.
func TestEventsRedeliveryChangesNothing(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		calls := &atomic.Int32{}
		var a *eventsApp
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option, withConsumer(effectsConsumer("counter", func() *sqldb.DB { return a.DB },
			func(events.Envelope) error { calls.Add(1); return nil })))
		createEffects(t, a.DB)
		for range 5 {
			a.publish(t, 4, "x")
		}
		ids := a.outboxIDs(t)
		eventually(t, "all applied", func() bool { return len(effectIDs(t, a.DB, "counter")) == len(ids) })

		a.stop(t)
		if tr.NATS() {
			// The forwarder's reset below republishes the outbox, which JetStream drops as
			// duplicates; new durable consumers read the whole stream again.
			deleteJetStreamConsumers(t, a.Broker.Config())
		}
		reset := `UPDATE watermill_offsets_events SET offset_acked = 0`
		if a.DB.Dialect == sqldb.Postgres {
			reset += `, last_processed_transaction_id = '0'`
		}
		a.start(t)
		if _, err := a.DB.Writer.Exec(reset); err != nil {
			t.Fatal(err)
		}
		a.publish(t, 1, "wake") // a commit wakes the subscriber to read from zero
		ids = a.outboxIDs(t)
		eventually(t, "the stream is read again", func() bool { return ackedAll(t, a, "counter") })
		if got := effectIDs(t, a.DB, "counter"); !slices.Equal(got, ids) {
			t.Fatalf("after redelivery the effects are %d rows, want %d: %v", len(got), len(ids), got)
		}
		if n := calls.Load(); n != int32(len(ids)) {
			t.Fatalf("handler ran %d times for %d events", n, len(ids))
		}
		if tr.NATS() { // the forwarder republished the whole outbox: JetStream kept each event once
			if n := streamMessages(t, a.Broker.Config()); n != uint64(len(ids)) {
				t.Fatalf("the stream holds %d messages for %d events", n, len(ids))
			}
		}
	})
}

// ackedAll tells whether group has acknowledged the newest outbox row, in every partition.
func ackedAll(t testing.TB, a *eventsApp, group string) bool {
	t.Helper()
	ok, err := a.Pos.CaughtUp(context.Background(), group)
	if err != nil {
		t.Fatalf("position of %s: %v", group, err)
	}
	return ok
}

// Stopping the service while a consumer is in the middle of a batch lets the current
// event finish and commits what was acknowledged; after a restart the rest is applied,
// nothing lost, nothing twice.
func TestEventsConsumerStoppedMidBatchResumes(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		reached := make(chan struct{})
		release := make(chan struct{})
		var once sync.Once
		var hits atomic.Int32
		block := func(events.Envelope) error {
			if hits.Add(1) == 5 {
				once.Do(func() { close(reached) })
				<-release
			}
			return nil
		}
		var a *eventsApp
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option,
			withRouterConfig(func(c *router.Config) { c.BatchSize = 10 }),
			withConsumer(effectsConsumer("resumer", func() *sqldb.DB { return a.DB }, block)))
		createEffects(t, a.DB)
		a.publish(t, 20, "batch") // two batches of 10; stop during the fifth event
		select {
		case <-reached:
		case <-time.After(eventsWait):
			t.Fatal("the consumer never reached the fifth event")
		}
		stopped := make(chan struct{})
		go func() { a.stop(t); close(stopped) }()
		time.Sleep(100 * time.Millisecond) // let the stop begin (the outcome holds either way)
		close(release)
		select {
		case <-stopped:
		case <-time.After(eventsWait):
			t.Fatal("stop did not drain")
		}
		// The drain committed the acknowledged prefix, the in-flight fifth event included.
		if n := countEffectsOffline(t, a.cfg, "resumer"); n < 5 || n >= 20 {
			t.Fatalf("at stop %d events were applied, want the drained prefix (5 to 19)", n)
		}
		a.start(t)
		a.publish(t, 1, "wake")
		ids := a.outboxIDs(t)
		eventually(t, "the rest is applied", func() bool { return ackedAll(t, a, "resumer") })
		if got := effectIDs(t, a.DB, "resumer"); !slices.Equal(got, ids) {
			t.Fatalf("after restart applied %d events (%v), want each of %d once", len(got), got, len(ids))
		}
	})
}

// countEffectsOffline counts a consumer's effects while the service is stopped.
func countEffectsOffline(t *testing.T, cfg compose.Config, consumer string) int {
	t.Helper()
	db, err := sqldb.Open(context.Background(), cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return len(effectIDs(t, db, consumer))
}
