package tests

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// An instance whose lease renewal hangs (here a lock on the lease tables; on a network, a
// database gone silent) stops its pairs before another instance may take them, LeaseTTL
// after its last renewal, instead of running them on leases it no longer holds until the
// database answers; and takes pairs again once it does. PostgreSQL: the lease tables are
// shared by instances only there.
func TestEventsRouterStopsItsPairsWhenItsHeartbeatHangs(t *testing.T) {
	testenv.Parallel(t)
	dbURL := testenv.NewPostgresURL(t)
	const ttl, beat = 2 * time.Second, 250 * time.Millisecond
	var a *eventsApp
	db := func() *sqldb.DB { return a.DB }
	a = startEventsApp(t, testenv.Config(t, dbURL),
		withRouterConfig(func(c *router.Config) { c.LeaseTTL, c.Heartbeat = ttl, beat }),
		withConsumer(effectsConsumer("alpha", db, nil)))
	eventually(t, "the instance runs its pairs", func() bool { return a.Router.Running() > 0 })

	admin, err := sqlx.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	tx, err := admin.BeginTxx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.Exec(`LOCK TABLE event_instances, event_leases IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	locked := time.Now()
	for a.Router.Running() > 0 {
		if time.Since(locked) > ttl+time.Second {
			t.Fatalf("%d pairs still running %s after the renewals began to hang (lease %s)", a.Router.Running(), time.Since(locked).Round(time.Millisecond), ttl)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopped := time.Since(locked)
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the instance runs pairs again once its renewals answer", func() bool { return a.Router.Running() > 0 })
	t.Logf("pairs stopped %s after the renewals began to hang (lease %s, heartbeat %s)", stopped.Round(time.Millisecond), ttl, beat)
}
