package tests

import (
	"context"
	"sync"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Over JetStream a part applies what waits in its durable consumer in batches, one
// database transaction for many events (a transaction per event made the API's commits
// queue behind more WAL flushes), still once each and in order per workspace.
func TestEventsJetStreamAppliesABacklogInBatches(t *testing.T) {
	testenv.Parallel(t)
	url := testenv.NATSURL(t)
	const n = 120
	var a *eventsApp
	db := func() *sqldb.DB { return a.DB }
	var mu sync.Mutex
	txs := map[int64]int{} // transaction id -> events applied in it
	effects := effectsConsumer("batched", db, nil)
	consumer := events.Consumer{Name: effects.Name, Handle: func(ctx context.Context, ev events.Envelope) error {
		if err := effects.Handle(ctx, ev); err != nil {
			return err
		}
		var tx int64
		if err := a.DB.Write(ctx).GetContext(ctx, &tx, `SELECT txid_current()`); err != nil {
			return err
		}
		mu.Lock()
		txs[tx]++
		mu.Unlock()
		return nil
	}}
	// The backlog: the events reach the stream while the consumer does not run yet; its
	// durable consumers are made when it starts, and read the stream from the start.
	a = startEventsApp(t, testenv.Config(t, testenv.NewPostgresURL(t)), testenv.UseNATS(t, url))
	createEffects(t, a.DB)
	a.publishSpread(t, n, natsWorkspaces, "backlog")
	eventually(t, "the stream holds the backlog", func() bool { return streamMessages(t, a.Broker.Config()) >= n })
	a.stop(t)
	a.opts = append(a.opts, withConsumer(consumer))
	a.start(t)

	assertAppliedOncePerWorkspaceOrder(t, a, "batched")
	mu.Lock()
	defer mu.Unlock()
	if len(txs) > n/4 {
		t.Fatalf("%d events were applied in %d transactions, want at most %d", n, len(txs), n/4)
	}
	t.Logf("%d events applied in %d transactions", n, len(txs))
}
