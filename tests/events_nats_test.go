package tests

import (
	"context"
	"fmt"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/ports/http/web"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// publishSpread commits n events, one per transaction, over the given workspaces in turn
// (so that they fall in several partitions).
func (a *eventsApp) publishSpread(t testing.TB, n int, workspaces []string, label string) {
	t.Helper()
	for i := range n {
		a.publishTo(t, workspaces[i%len(workspaces)], fmt.Sprintf("%s-%d", label, i))
	}
}

var natsWorkspaces = []string{"org_a", "org_b", "org_c", "org_d", "org_e", "org_f"}

// assertAppliedOncePerWorkspaceOrder checks that consumer applied every outbox event once,
// each workspace's events in their stream order.
func assertAppliedOncePerWorkspaceOrder(t *testing.T, a *eventsApp, consumer string) {
	t.Helper()
	want := a.outboxByWorkspace(t)
	total := 0
	for _, ids := range want {
		total += len(ids)
	}
	eventually(t, consumer+" applied every event", func() bool { return len(effectIDs(t, a.DB, consumer)) >= total })
	got := effectIDs(t, a.DB, consumer)
	if len(got) != total {
		t.Fatalf("%s applied %d events, want each of %d once", consumer, len(got), total)
	}
	pos := map[string]int{}
	for i, id := range got {
		pos[id] = i
	}
	for ws, ids := range want {
		for i := 1; i < len(ids); i++ {
			if pos[ids[i-1]] > pos[ids[i]] {
				t.Fatalf("%s applied workspace key %d's events out of order (%s after %s)", consumer, ws, ids[i-1], ids[i])
			}
		}
	}
}

// Over JetStream every consumer applies every event once, each workspace's events in
// their order, with the events spread over the partitions.
func TestEventsOverJetStreamInOrderOnce(t *testing.T) {
	testenv.Parallel(t)
	url := testenv.NATSURL(t)
	var a *eventsApp
	db := func() *sqldb.DB { return a.DB }
	a = startEventsApp(t, testenv.Config(t, testenv.NewPostgresURL(t)), testenv.UseNATS(t, url),
		withConsumer(effectsConsumer("alpha", db, nil)),
		withConsumer(effectsConsumer("beta", db, nil)))
	createEffects(t, a.DB)
	a.publishSpread(t, 120, natsWorkspaces, "spread")
	for _, c := range []string{"alpha", "beta"} {
		assertAppliedOncePerWorkspaceOrder(t, a, c)
	}
}

// The broker goes away: commands keep committing (the outbox grows), /readyz reports the
// broker, and once it is back every event is delivered, once, in order per workspace.
func TestEventsJetStreamOutageLosesNothing(t *testing.T) {
	testenv.Parallel(t)
	testenv.NATSURL(t) // the NATS suites run where CI provides NATS
	srv := testenv.StartNATSServer(t)
	var a *eventsApp
	var ready *web.Readiness
	db := func() *sqldb.DB { return a.DB }
	a = startEventsApp(t, testenv.Config(t, testenv.NewPostgresURL(t)), testenv.UseNATS(t, srv.URL),
		fx.Populate(&ready),
		withConsumer(effectsConsumer("steady", db, nil)))
	createEffects(t, a.DB)
	a.publishSpread(t, 30, natsWorkspaces, "before")
	eventually(t, "the first events are applied", func() bool { return len(effectIDs(t, a.DB, "steady")) == 30 })
	if r := ready.Probe(context.Background()); r.Checks["broker"] != "ok" {
		t.Fatalf("with the broker up, readiness says %+v", r)
	}

	srv.Stop(t)
	a.publishSpread(t, 30, natsWorkspaces, "during") // commands still commit
	if r := ready.Probe(context.Background()); r.Status == "ready" || r.Checks["broker"] == "ok" {
		t.Fatalf("with the broker away, readiness says %+v", r)
	}
	if n := len(effectIDs(t, a.DB, "steady")); n != 30 {
		t.Fatalf("with the broker away %d events were applied, want the 30 from before", n)
	}

	srv.Start(t)
	a.publishSpread(t, 30, natsWorkspaces, "after")
	assertAppliedOncePerWorkspaceOrder(t, a, "steady")
	eventually(t, "readiness reports the broker back", func() bool {
		return ready.Probe(context.Background()).Checks["broker"] == "ok"
	})
}

// deleteJetStreamConsumers deletes every durable consumer of the stream (with the service
// stopped): they are created again from the stream's start.
func deleteJetStreamConsumers(t testing.TB, cfg natstransport.JetStreamConfig) {
	t.Helper()
	stream := streamOf(t, cfg)
	ctx := context.Background()
	var all []string
	for n := range stream.ConsumerNames(ctx).Name() {
		all = append(all, n)
	}
	if len(all) == 0 {
		t.Fatal("the stream has no consumers to delete")
	}
	for _, n := range all {
		if err := stream.DeleteConsumer(ctx, n); err != nil {
			t.Fatal(err)
		}
	}
}

// streamMessages returns how many messages the stream holds.
func streamMessages(t testing.TB, cfg natstransport.JetStreamConfig) uint64 {
	t.Helper()
	return streamOf(t, cfg).CachedInfo().State.Msgs
}

// streamOf looks the deployment's stream up on a connection of the test's own.
func streamOf(t testing.TB, cfg natstransport.JetStreamConfig) jetstream.Stream {
	t.Helper()
	nc, err := nats.Connect(cfg.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	stream, err := js.Stream(context.Background(), cfg.StreamName())
	if err != nil {
		t.Fatal(err)
	}
	return stream
}
