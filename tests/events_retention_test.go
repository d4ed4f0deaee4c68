package tests

import (
	"context"
	"slices"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Retention deletes outbox rows only when they are older than the retention AND every
// consumer group has consumed them; young rows and rows a laggard still needs stay.
func TestEventsRetentionDeletesOnlyOldFullyConsumedRows(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		var a *eventsApp
		a = startEventsApp(t, testenv.Config(t, dbURL), withConsumer(effectsConsumer("reader", func() *sqldb.DB { return a.DB }, nil)))
		createEffects(t, a.DB)
		for range 10 {
			a.publish(t, 1, "r")
		}
		ids := a.outboxIDs(t)
		// Every group, the reader and the service's own (webhook fan-out), consumes everything.
		eventually(t, "every group consumed everything", func() bool { return everyGroupAcked(t, a) })

		// The first six rows are 40 days old (by the database clock, like the column default).
		age := `UPDATE watermill_events SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-40 days') WHERE uuid = ?`
		if a.DB.Dialect == sqldb.Postgres {
			age = `UPDATE watermill_events SET created_at = LOCALTIMESTAMP - interval '40 days' WHERE uuid = $1`
		}
		for _, id := range ids[:6] {
			if _, err := a.DB.Writer.Exec(age, id); err != nil {
				t.Fatal(err)
			}
		}
		// A lagging group has consumed only the first three.
		laggard := `INSERT INTO watermill_offsets_events (consumer_group, offset_acked) SELECT 'laggard', "offset" FROM watermill_events WHERE uuid = ?`
		if a.DB.Dialect == sqldb.Postgres {
			laggard = `INSERT INTO watermill_offsets_events (consumer_group, offset_acked, last_processed_transaction_id)
				SELECT 'laggard', "offset", transaction_id FROM watermill_events WHERE uuid = $1`
		}
		if _, err := a.DB.Writer.Exec(laggard, ids[2]); err != nil {
			t.Fatal(err)
		}

		expect := func(what string, wantDeleted int64, want []string) {
			t.Helper()
			n, err := a.Ret.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got := a.outboxIDs(t); n != wantDeleted || !slices.Equal(got, want) {
				t.Fatalf("%s: deleted %d, outbox %v; want %d deleted, %v", what, n, got, wantDeleted, want)
			}
		}
		expect("with a laggard", 3, ids[3:])
		if _, err := a.DB.Writer.Exec(`DELETE FROM watermill_offsets_events WHERE consumer_group = 'laggard'`); err != nil {
			t.Fatal(err)
		}
		expect("all consumed", 3, ids[6:])
		expect("nothing more is old", 0, ids[6:])

		// The stream goes on after pruning.
		a.publish(t, 1, "after")
		eventually(t, "the reader consumes new events", func() bool { return ackedAll(t, a, "reader") })
		if got := effectIDs(t, a.DB, "reader"); len(got) != 11 {
			t.Fatalf("reader applied %d events, want 11", len(got))
		}
	})
}

// everyGroupAcked tells whether every consumer group has acknowledged the newest row.
func everyGroupAcked(t testing.TB, a *eventsApp) bool {
	t.Helper()
	for _, c := range a.Router.Consumers() {
		if !ackedAll(t, a, c.Name) {
			return false
		}
	}
	return true
}
