package tests

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// An inline consumer runs in the publishing transaction: its effects are there the moment
// the publish commits, vanish with a rollback, and its failure fails the publish; it takes
// only its types, and no consumer group (position) is made for it.
func TestEventsInlineConsumerCommitsWithThePublishingTransaction(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var db *sqldb.DB
		fail := errors.New("inline consumer fails")
		inline := effectsConsumer("inline", func() *sqldb.DB { return db }, func(ev events.Envelope) error {
			if label, _ := labelOf(ev); label == "fail-0" {
				return fail
			}
			return nil
		})
		inline.Inline, inline.Types = true, []events.Type{events.StudentCreated}
		a := startEventsApp(t, testenv.Config(t, dbURL), withConsumer(inline))
		db = a.DB
		createEffects(t, db)

		a.publish(t, 3, "committed")
		if got, want := effectIDs(t, db, "inline"), a.outboxIDs(t); !slices.Equal(got, want) {
			t.Fatalf("right after the commit the inline consumer applied %v; the outbox holds %v", got, want)
		}

		rollback := errors.New("the change fails after publishing")
		err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			if err := a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "rolled-back"})); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatalf("publish then fail: %v", err)
		}
		other := events.New(events.CoursePublished, "org_test", map[string]string{"label": "course"})
		if err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error { return a.Pub.Publish(ctx, other) }); err != nil {
			t.Fatalf("publish a type the consumer does not take: %v", err)
		}
		err = a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			return a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "fail-0"}))
		})
		if !errors.Is(err, fail) {
			t.Fatalf("an inline consumer's failure must fail the publish: %v", err)
		}

		ids := a.outboxIDs(t)
		if len(ids) != 4 { // 3 committed, the course
			t.Fatalf("outbox holds %d events, want 4: the rolled back and the failed publish left none", len(ids))
		}
		if got := effectIDs(t, db, "inline"); !slices.Equal(got, ids[:3]) {
			t.Fatalf("inline effects %v, want the three student.created events %v once each", got, ids[:3])
		}
		var positions int
		if err := db.Reader.Get(&positions, db.Rebind(`SELECT COUNT(*) FROM watermill_offsets_events WHERE consumer_group = ? OR consumer_group LIKE ?`), "inline", "inline/p%"); err != nil {
			t.Fatal(err)
		}
		if positions != 0 {
			t.Fatalf("%d positions of the inline consumer: the router ran it as a group", positions)
		}
	})
}

// A consumer that was a group and becomes inline (the webhook fan-out on upgrade): on
// start, what the group had not consumed is applied once, what it had is not applied
// again, and the group's positions and leases are gone, so retention no longer waits; an
// event the group parked can still be replayed, by the inline consumer.
func TestEventsRetiredGroupIsCaughtUpOnceWhenItsConsumerBecomesInline(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var a *eventsApp
		var fixed atomic.Bool
		fanout := effectsConsumer("was-a-group", func() *sqldb.DB { return a.DB }, func(ev events.Envelope) error {
			if label, _ := labelOf(ev); label == "poison-0" && !fixed.Load() {
				return errors.New("bug: cannot apply this event")
			}
			return nil
		})
		fast := withRouterConfig(func(c *router.Config) { c.Backoff = time.Millisecond })
		a = startEventsApp(t, testenv.Config(t, dbURL), fast, withConsumer(fanout))
		createEffects(t, a.DB)
		a.publish(t, 3, "consumed-by-the-group")
		a.publish(t, 1, "poison")
		eventually(t, "the group applied three events and parked one", func() bool {
			parked, err := a.Ledger.Failures(context.Background(), "was-a-group")
			return err == nil && len(parked) == 1 && len(effectIDs(t, a.DB, "was-a-group")) == 3
		})

		// The version before, stopped with a backlog: events published while its group ran nowhere.
		a.stop(t)
		a.opts = nil
		a.start(t)
		a.publish(t, 2, "left-unconsumed")
		a.stop(t)

		fixed.Store(true)
		inline := fanout
		inline.Inline = true
		a.opts = []fx.Option{withConsumer(inline)}
		a.start(t)
		for _, q := range []string{
			`SELECT COUNT(*) FROM watermill_offsets_events WHERE consumer_group = ? OR consumer_group LIKE ?`,
			`SELECT COUNT(*) FROM event_leases WHERE consumer = ? OR consumer = ?`,
		} {
			var n int
			if err := a.DB.Reader.Get(&n, a.DB.Rebind(q), "was-a-group", "was-a-group/p%"); err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("%q: %d rows of the retired group remain", q, n)
			}
		}
		// The parked event lies before the group's position (it was acknowledged): the
		// operator's replay applies it, through the inline consumer.
		res, err := a.Ops.ReplayEvents(context.Background(), "was-a-group", "")
		if err != nil || len(res) != 1 || !res[0].Replayed {
			t.Fatalf("replay of the event the group parked: %+v, %v", res, err)
		}
		a.publish(t, 1, "inline")
		a.stop(t)
		a.start(t) // nothing left to retire: applies nothing again
		got, want := effectIDs(t, a.DB, "was-a-group"), a.outboxIDs(t)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("the consumer applied %v, want each of %v once", got, want)
		}
	})
}
