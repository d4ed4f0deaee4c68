package tests

import (
	"context"
	"slices"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// A consumer that names its types gets only those, in stream order, and the others cost
// it nothing: no call, no ledger row. The stream still moves past them (a later event of
// its type arrives), and a consumer without types still gets everything.
func TestEventsConsumerWithTypesGetsOnlyThose(t *testing.T) {
	testenv.EachTransport(t, func(t *testing.T, dbURL string, tr testenv.Transport) {
		var a *eventsApp
		db := func() *sqldb.DB { return a.DB }
		typed := effectsConsumer("typed", db, nil)
		typed.Types = []events.Type{events.CourseArchived}
		a = startEventsApp(t, testenv.Config(t, dbURL), tr.Option, withConsumer(typed), withConsumer(effectsConsumer("all", db, nil)))
		createEffects(t, a.DB)

		publish := func(typ events.Type) {
			ev := events.New(typ, "org_test", map[string]string{"id": "crs_x"})
			if err := a.Tx.WithinTx(context.Background(), func(ctx context.Context) error { return a.Pub.Publish(ctx, ev) }); err != nil {
				t.Fatalf("publish: %v", err)
			}
		}
		for i := range 30 {
			if i%3 == 2 {
				publish(events.CourseArchived)
			} else {
				publish(events.StudentCreated)
			}
		}
		want := a.outboxIDs(t) // one event per transaction: the order published
		var archived []string
		for i, id := range want {
			if i%3 == 2 {
				archived = append(archived, id)
			}
		}
		eventually(t, "the untyped consumer applied every event", func() bool { return len(effectIDs(t, a.DB, "all")) >= len(want) })
		eventually(t, "the typed consumer applied its events", func() bool { return len(effectIDs(t, a.DB, "typed")) >= len(archived) })
		if got := effectIDs(t, a.DB, "typed"); !slices.Equal(got, archived) {
			t.Fatalf("typed consumer applied %v, want the course.archived events %v in order", got, archived)
		}
		var rows int
		if err := a.DB.Reader.Get(&rows, a.DB.Rebind(`SELECT COUNT(*) FROM event_processed WHERE consumer = ?`), "typed"); err != nil {
			t.Fatal(err)
		}
		if rows != len(archived) {
			t.Fatalf("typed consumer has %d ledger rows, want %d (one per event of its type)", rows, len(archived))
		}
	})
}
