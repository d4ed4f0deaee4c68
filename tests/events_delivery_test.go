package tests

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Every consumer gets the whole stream, in stream order, each event applied once, while
// three writers publish concurrently.
func TestEventsDeliveredInOrderOnceToEachConsumer(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		var a *eventsApp
		db := func() *sqldb.DB { return a.DB }
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option,
			withConsumer(effectsConsumer("alpha", db, nil)),
			withConsumer(effectsConsumer("beta", db, nil)))
		createEffects(t, a.DB)

		var wg sync.WaitGroup
		for w := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 20 {
					a.publish(t, 1+(w+i)%5, "w") // 1 to 5 events per transaction
				}
			}()
		}
		wg.Wait()
		want := a.outboxIDs(t)
		if len(want) != 180 {
			t.Fatalf("outbox holds %d events, want 180", len(want))
		}
		for _, c := range []string{"alpha", "beta"} {
			eventually(t, c+" applied every event", func() bool { return len(effectIDs(t, a.DB, c)) >= len(want) })
			if got := effectIDs(t, a.DB, c); !slices.Equal(got, want) {
				t.Fatalf("%s applied %d events, not the stream in order (first difference at %d)", c, len(got), firstDiff(got, want))
			}
		}
	})
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A commit wakes the subscriber: with a safety poll of a minute, delivery still takes
// milliseconds. On PostgreSQL a second instance, which published nothing itself, is woken
// by LISTEN/NOTIFY.
func TestEventsCommitWakesSubscribersWithoutPolling(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		slowPoll := withRouterConfig(func(c *router.Config) { c.PollInterval = time.Minute })
		seen := make(chan time.Time, 100)
		notify := func(ev events.Envelope) error { seen <- time.Now(); return nil }
		var a *eventsApp
		cfg := testenv.Config(t, dbURL)
		a = startEventsApp(t, cfg, tr.Option, slowPoll, withConsumer(effectsConsumer("waker", func() *sqldb.DB { return a.DB }, notify)))
		createEffects(t, a.DB)
		expectWoken := func(publisher *eventsApp, what string) {
			t.Helper()
			for range 5 {
				start := time.Now()
				publisher.publish(t, 1, what)
				// Far below the one-minute poll, yet generous: this proves the wake-up, not
				// its latency on a loaded machine (make bench measures that).
				select {
				case at := <-seen:
					if d := at.Sub(start); d > 15*time.Second {
						t.Fatalf("%s: delivered after %v: the commit did not wake the subscriber", what, d)
					}
				case <-time.After(30 * time.Second):
					t.Fatalf("%s: not delivered within 30s with a one-minute poll", what)
				}
			}
		}
		expectWoken(a, "same instance")

		if a.DB.Dialect == sqldb.Postgres {
			other := testenv.Config(t, dbURL)
			other.DatabaseURL = cfg.DatabaseURL
			b := startEventsApp(t, other, tr.Option, slowPoll) // publishes; runs no consumer
			expectWoken(b, "other instance")
		}
	})
}

// A rolled-back transaction emits nothing: the consumer sees the events committed before
// and after it, and never the rolled-back ones.
func TestEventsRollbackEmitsNothingToConsumers(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		rec := &recorder{}
		var a *eventsApp
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option, withConsumer(effectsConsumer("watcher", func() *sqldb.DB { return a.DB },
			func(ev events.Envelope) error { rec.add(ev.ID); return nil })))
		createEffects(t, a.DB)
		a.publish(t, 1, "before")
		err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			if err := a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "ghost"})); err != nil {
				return err
			}
			return errors.New("roll back")
		})
		if err == nil {
			t.Fatal("the failing transaction committed")
		}
		a.publish(t, 1, "after")
		want := a.outboxIDs(t)
		if len(want) != 2 {
			t.Fatalf("outbox holds %d events, want the 2 committed", len(want))
		}
		eventually(t, "the committed events arrive", func() bool { return len(effectIDs(t, a.DB, "watcher")) >= 2 })
		if got := rec.seen(); !slices.Equal(got, want) {
			t.Fatalf("consumer saw %v, want only the committed %v", got, want)
		}
	})
}
