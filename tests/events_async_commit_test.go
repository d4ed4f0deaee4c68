package tests

import (
	"context"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// On PostgreSQL the SQL transport's batch transactions commit without waiting for the WAL
// flush: their position commits with their effects, so a server crash loses both and the
// events come again. A broker's consumer, whose position is the broker's ack, and the
// API's writes keep synchronous commits. (SQLite has no such setting.)
func TestEventsOnlySQLTransportBatchesCommitAsynchronously(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		seen := make(chan string, 10)
		var a *eventsApp
		consumer := events.Consumer{Name: "durability", Handle: func(ctx context.Context, ev events.Envelope) error {
			if a.DB.Dialect != sqldb.Postgres {
				seen <- "n/a"
				return nil
			}
			var setting string
			if err := a.DB.Write(ctx).GetContext(ctx, &setting, `SHOW synchronous_commit`); err != nil {
				return err
			}
			seen <- setting
			return nil
		}}
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option, withConsumer(consumer))
		want := "on"
		switch {
		case a.DB.Dialect != sqldb.Postgres:
			want = "n/a"
		case !tr.NATS():
			want = "off"
		}
		var inAPI string
		err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error {
			if a.DB.Dialect == sqldb.Postgres {
				if err := a.DB.Write(ctx).GetContext(ctx, &inAPI, `SHOW synchronous_commit`); err != nil {
					return err
				}
			}
			return a.Pub.Publish(ctx, events.New(events.StudentCreated, "org_test", map[string]string{"label": "x"}))
		})
		if err != nil {
			t.Fatal(err)
		}
		if a.DB.Dialect == sqldb.Postgres && inAPI != "on" {
			t.Fatalf("a publishing transaction runs with synchronous_commit %q, want on", inAPI)
		}
		for range 2 { // the event, then one more in a batch of its own
			select {
			case got := <-seen:
				if got != want {
					t.Fatalf("%s consumer's transaction: synchronous_commit %q, want %q", tr.Name, got, want)
				}
			case <-time.After(eventsWait):
				t.Fatalf("the consumer applied nothing within %v", eventsWait)
			}
			a.publish(t, 1, "again")
		}
	})
}
