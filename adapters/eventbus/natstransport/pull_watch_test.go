package natstransport_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
)

// natsURL is CREATORAPI_TEST_NATS_URL (adapters never import tests/testenv): without it
// the test is skipped, loudly, and under CI it fails, as testenv.NATSURL does.
func natsURL(t *testing.T) string {
	url := os.Getenv("CREATORAPI_TEST_NATS_URL")
	switch {
	case url != "":
		return url
	case os.Getenv("CI") == "true":
		t.Fatal("CREATORAPI_TEST_NATS_URL is not set: the NATS JetStream tests must run under CI")
	default:
		t.Skip("SKIPPED LOUDLY: set CREATORAPI_TEST_NATS_URL (nats://127.0.0.1:4222) to run the NATS JetStream tests")
	}
	return ""
}

// A part's pull that takes nothing while its consumer holds events for it, none of them
// outstanding, is reported after two idle waits (the part loop then makes it again); a
// live pull takes the events, and a consumer whose events are outstanding (redelivery
// serves them) or that holds none is only waited on. Seen in a three-node cluster after a
// node was replaced: a consumer with 201 events pending and none taken, for good.
func TestASilentPullIsReportedWhileEventsWait(t *testing.T) {
	url := natsURL(t)
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	name := fmt.Sprintf("silent%d", time.Now().UnixNano())
	stream, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{name + ".>"}, Storage: jetstream.MemoryStorage})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = js.DeleteStream(context.Background(), name) })
	for i := range 3 {
		if _, err := js.Publish(ctx, name+".p0", fmt.Appendf(nil, "event %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	consumer := func(durable, subject string, maxOutstanding int) jetstream.Consumer {
		c, err := stream.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{Durable: durable, FilterSubject: subject,
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: time.Minute, MaxAckPending: maxOutstanding})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	const idle = 100 * time.Millisecond
	waitClosed := func(cons jetstream.Consumer, it jetstream.MessagesContext) error {
		closing := make(chan struct{})
		time.AfterFunc(6*idle, func() { close(closing) })
		batch, err := natstransport.TakeWatched(ctx, cons, it, idle, closing)
		if len(batch) != 0 {
			t.Fatalf("a silent pull took %d events", len(batch))
		}
		return err
	}

	waiting := consumer("waiting", name+".p0", 10)
	start := time.Now()
	giveUp := make(chan struct{})
	time.AfterFunc(3*time.Second, func() { close(giveUp) })
	_, err = natstransport.TakeWatched(ctx, waiting, silent{idle}, idle, giveUp)
	if !errors.Is(err, natstransport.ErrSilentPull) {
		t.Fatalf("a pull that takes nothing while 3 events wait: %v, want it reported silent", err)
	}
	if took := time.Since(start); took < 2*idle || took > 2*time.Second {
		t.Fatalf("reported after %s, want after two idle waits of %s", took, idle)
	}

	it, err := waiting.Messages()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Stop()
	batch, err := natstransport.TakeWatched(ctx, waiting, it, idle, make(chan struct{}))
	if err != nil || len(batch) == 0 {
		t.Fatalf("a live pull took %d events: %v", len(batch), err)
	}

	// One event delivered and unacknowledged holds the other two back (one outstanding at a
	// time): its redelivery serves them, no new pull would.
	held := consumer("held", name+".p0", 1)
	got, err := held.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for range got.Messages() {
	}
	if info, err := held.Info(ctx); err != nil || info.NumAckPending != 1 || info.NumPending != 2 {
		t.Fatalf("the held consumer: %+v, %v; want 1 outstanding, 2 pending", info, err)
	}
	if err := waitClosed(held, silent{idle}); err != nil {
		t.Fatalf("events pending behind an outstanding one: %v, want the pull waited on", err)
	}
	if err := waitClosed(consumer("idle", name+".p1", 10), silent{idle}); err != nil {
		t.Fatalf("no event for the consumer: %v, want the pull waited on", err)
	}
}

// silent is a pull that never delivers: each wait ends after d.
type silent struct {
	d time.Duration
}

func (s silent) Next(...jetstream.NextOpt) (jetstream.Msg, error) {
	time.Sleep(s.d)
	return nil, context.DeadlineExceeded
}
func (silent) Stop()  {}
func (silent) Drain() {}
