package tests

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A consumer whose write conflicts with a commit made after its batch's snapshot (a
// serialization failure, 40001) must get the event again in a new transaction at once.
// watermill-sql resends a nacked message in the same transaction, where the same snapshot
// conflicts again, until the ack deadline; that open transaction meanwhile holds every
// later event of every consumer back (its xmin). The order-entitlements consumer did this
// after an API refund of the same order: 26 s without delivery with 4 partitions.
// (PostgreSQL only: SQLite has one writer, so no such conflict.)
func TestEventsSerializationFailureIsRetriedInANewTransaction(t *testing.T) {
	testenv.Serial(t, "times the retry after a conflict (5 s against a 20 s ack deadline); parallel runs' load and long transactions delay it")
	dbURL := testenv.NewPostgresURL(t)
	var db *sqldb.DB
	var calls atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	consumer := events.Consumer{Name: "conflicted", Handle: func(ctx context.Context, ev events.Envelope) error {
		if calls.Add(1) == 1 {
			close(started) // the batch's snapshot is taken (its poll ran)
			<-release      // the test updates the row meanwhile
		}
		_, err := db.Write(ctx).ExecContext(ctx, `UPDATE test_conflict SET n = n + 1 WHERE id = 1`)
		return err
	}}
	// The ack deadline is the bound of a retry in the same transaction: well beyond the wait below.
	deadline := withRouterConfig(func(c *router.Config) { c.AckDeadline = 20 * time.Second })
	a := startEventsApp(t, testenv.Config(t, dbURL), deadline, withConsumer(consumer))
	db = a.DB
	if db.Dialect != sqldb.Postgres {
		t.Fatalf("dialect %v: this test is about PostgreSQL's snapshots", db.Dialect)
	}
	if _, err := db.Writer.Exec(`CREATE TABLE test_conflict (id INT PRIMARY KEY, n INT NOT NULL); INSERT INTO test_conflict VALUES (1, 0)`); err != nil {
		t.Fatal(err)
	}

	a.publish(t, 1, "conflict")
	select {
	case <-started:
	case <-time.After(eventsWait):
		t.Fatal("the event was not delivered")
	}
	if _, err := db.Writer.Exec(`UPDATE test_conflict SET n = n + 100 WHERE id = 1`); err != nil {
		t.Fatal(err)
	}
	released := time.Now()
	close(release)

	var n int
	for {
		if err := db.Reader.Get(&n, `SELECT n FROM test_conflict WHERE id = 1`); err != nil {
			t.Fatal(err)
		}
		if n != 100 || time.Since(released) > 5*time.Second {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if n != 101 {
		t.Fatalf("n = %d %v after the conflict (%d calls), want 101 within 5 s: the event was retried in its conflicted transaction", n, time.Since(released), calls.Load())
	}
	t.Logf("applied %v after the conflict, %d calls", time.Since(released), calls.Load())
	var parked int
	if err := db.Reader.Get(&parked, `SELECT count(*) FROM event_failures`); err != nil {
		t.Fatal(err)
	}
	if parked != 0 {
		t.Fatalf("%d events parked, want none (a conflict is retried, not a failure of the consumer)", parked)
	}
	eventually(t, "the consumer is caught up", func() bool {
		ok, err := a.Pos.CaughtUp(context.Background(), "conflicted")
		return err == nil && ok
	})
}
