package tests

import (
	"context"
	"database/sql"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A lazy consumer is not woken by each commit: events committed one by one within its
// safety poll are applied together at that poll; an eager consumer beside it applies the
// first at once.
func TestEventsLazyConsumerAppliesCommitsOfAPollTogether(t *testing.T) {
	testenv.Alone(t, "times a wake-up against half a poll (1 s): parallel runs' load delays it past that")
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var mu sync.Mutex
		lazyTx := map[*sql.Tx]int{} // the batch transaction under each wrapper
		lazyApplied, eagerFirst := make(chan string, 10), make(chan time.Time, 10)
		lazy := events.Consumer{Name: "lazy", Lazy: true, Handle: func(ctx context.Context, ev events.Envelope) error {
			tx, _ := sqldb.TxFromContext(ctx)
			mu.Lock()
			lazyTx[tx.Tx]++
			mu.Unlock()
			label, err := labelOf(ev)
			lazyApplied <- label
			return err
		}}
		eager := events.Consumer{Name: "eager", Handle: func(context.Context, events.Envelope) error {
			eagerFirst <- time.Now()
			return nil
		}}
		const poll = 2 * time.Second
		slowPoll := withRouterConfig(func(c *router.Config) { c.PollInterval = poll })
		a := startEventsApp(t, testenv.Config(t, dbURL), slowPoll, withConsumer(lazy), withConsumer(eager))

		start := time.Now()
		for range 5 {
			a.publish(t, 1, "one-by-one")
			time.Sleep(50 * time.Millisecond) // an eager consumer applies each on its own
		}
		select {
		case at := <-eagerFirst:
			if d := at.Sub(start); d > poll/2 {
				t.Fatalf("the eager consumer applied its first event after %v: not woken by the commit", d)
			}
		case <-time.After(eventsWait):
			t.Fatal("the eager consumer applied nothing")
		}
		for i := range 5 {
			select {
			case <-lazyApplied:
			case <-time.After(eventsWait):
				t.Fatalf("the lazy consumer applied %d of 5 events within %v", i, eventsWait)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		// One poll, or two when the poll's whole-second boundary fell among the commits (a
		// third when a poll found the next commit held back and re-polled for it); woken per
		// commit, it takes five.
		if len(lazyTx) > 3 {
			t.Fatalf("the lazy consumer applied 5 commits in %d transactions, want at most 3 (woken per commit?)", len(lazyTx))
		}
		t.Logf("lazy consumer applied 5 commits in %d transaction(s), %v after the first", len(lazyTx), time.Since(start).Round(time.Millisecond))
	})
}
