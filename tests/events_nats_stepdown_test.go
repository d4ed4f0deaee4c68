package tests

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The step-down a silent pull asks of its replicated consumer moves the consumer's
// leadership to another server of a three-node cluster.
func TestStepDownMovesAConsumersLeader(t *testing.T) {
	testenv.Parallel(t)
	testenv.NATSURL(t) // the NATS suites run where CI provides NATS
	cluster := testenv.StartNATSCluster(t, 3)
	nc, err := nats.Connect(cluster.URLs())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js := cluster.JetStream(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	stream, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "stepdown", Subjects: []string{"stepdown.>"}, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	cons, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: "part", AckPolicy: jetstream.AckExplicitPolicy, Replicas: 3})
	if err != nil {
		t.Fatal(err)
	}
	leader := func() string {
		ictx, cancel := context.WithTimeout(ctx, 2*time.Second) // unanswered while no leader
		defer cancel()
		info, err := cons.Info(ictx)
		if err != nil || info.Cluster == nil {
			return ""
		}
		return info.Cluster.Leader
	}
	before := leader()
	for before == "" && ctx.Err() == nil {
		time.Sleep(100 * time.Millisecond)
		before = leader()
	}
	if err := natstransport.StepDownConsumer(ctx, nc, "stepdown", "part"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for now := leader(); now == "" || now == before; now = leader() {
		if ctx.Err() != nil {
			t.Fatalf("the consumer's leader is still %q after the step-down (was %s)", now, before)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("leader %s -> %s after %s", before, leader(), time.Since(start).Round(time.Millisecond))
	if err := natstransport.StepDownConsumer(ctx, nc, "stepdown", "nosuch"); err == nil {
		t.Fatal("a step-down of a consumer that does not exist reported no error")
	}
}
