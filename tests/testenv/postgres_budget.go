package testenv

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"golang.org/x/sync/semaphore"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// The PostgreSQL server's connections (max_connections: 100 by default, and on CI) are
// shared by every parallel test, and a service instance under load fills its pool
// (sqldb.PostgresPoolSize) and holds a LISTEN connection besides. Eight parallel runs
// with a second instance here and there went past 100 ("FATAL: sorry, too many clients
// already", SQLSTATE 53300), failing whichever test connected next. So every PostgreSQL
// run reserves the connections of the instances it starts: NewPostgresURL one instance
// (or, in a top-level test that may still pause, its first Start), Start one more for
// each instance beyond the first live on the same database, and a test that runs more
// `serve` processes says so with ReserveInstances. A run that cannot reserve waits for
// one that finishes.

// connectionsPerInstance is what one service instance may hold: its pool, its cache
// invalidation listener and the test's own admin connection.
const connectionsPerInstance = sqldb.PostgresPoolSize + 2

// reserveWait bounds the wait for a reservation; past it the run goes ahead unreserved
// (and says so), so that two runs each waiting for more than is left cannot deadlock.
const reserveWait = 3 * time.Minute

// connectionsLeftFree is kept out of the budget: the suites' direct connections
// (schemas, inspections) and anything else on the server.
const connectionsLeftFree = 8

var postgresBudget struct {
	once sync.Once
	sem  *semaphore.Weighted
	size int64
}

// ReserveInstances reserves PostgreSQL connections for n more service instances than the
// one NewPostgresURL reserved, until the end of t: call it before starting them.
func ReserveInstances(t testing.TB, n int) {
	t.Helper()
	reserveConnections(t, serviceURL(t, PostgresURLVar, "PostgreSQL", "postgres://postgres@127.0.0.1:5432/postgres"), n)
}

// reserveConnections takes n instances' connections from the budget of the server at
// base, given back at the end of t.
func reserveConnections(t testing.TB, base string, n int) {
	t.Helper()
	release := reserve(t, base, n)
	t.Cleanup(release)
}

// reserve takes n instances' connections and returns the function that gives them back.
func reserve(t testing.TB, base string, n int) func() {
	t.Helper()
	if n <= 0 {
		return func() {}
	}
	postgresBudget.once.Do(func() { sizeBudget(t, base) })
	w := min(int64(n*connectionsPerInstance), postgresBudget.size)
	ctx, cancel := context.WithTimeout(context.Background(), reserveWait)
	defer cancel()
	if err := postgresBudget.sem.Acquire(ctx, w); err != nil {
		t.Logf("testenv: no PostgreSQL connections free for %d instance(s) after %s; going ahead without a reservation", n, reserveWait)
		return func() {}
	}
	var once sync.Once
	return func() { once.Do(func() { postgresBudget.sem.Release(w) }) }
}

// liveInstances counts the instances Start runs per database URL; reservedURLs holds the
// URLs whose first instance NewPostgresURL reserved.
var liveInstances, reservedURLs sync.Map // database URL -> *atomic.Int32, true

// reserveForURL reserves the first instance of a new database for the test, unless the
// test is top-level and not yet marked: such a test may still turn parallel (Start) and
// pause until the serial phase ends, and a paused test holding connections starved the
// serial tests. Its first Start reserves instead.
func reserveForURL(t testing.TB, base, databaseURL string) {
	if _, marked := marks.Load(t); !marked && !strings.Contains(t.Name(), "/") {
		return
	}
	reserveConnections(t, base, 1)
	reservedURLs.Store(databaseURL, true)
	t.Cleanup(func() { reservedURLs.Delete(databaseURL) }) // the database may serve another test next
}

// reserveStarted reserves an instance's connections when another instance already runs
// on databaseURL, or when NewPostgresURL reserved none for it, and returns what Stop calls.
func reserveStarted(t testing.TB, databaseURL string) func() {
	if !strings.HasPrefix(databaseURL, "postgres") {
		return func() {}
	}
	v, _ := liveInstances.LoadOrStore(databaseURL, new(atomic.Int32))
	live := v.(*atomic.Int32)
	release := func() {}
	if _, reserved := reservedURLs.Load(databaseURL); live.Add(1) > 1 || !reserved {
		release = reserve(t, databaseURL, 1)
	}
	var once sync.Once
	return func() { once.Do(func() { live.Add(-1); release() }) }
}

// sizeBudget sets the budget from the server's limit less what is reserved for
// superusers, what other clients hold now and a margin; at least one instance's worth.
func sizeBudget(t testing.TB, base string) {
	size := int64(100 - 3 - connectionsLeftFree)
	if db, err := sqlx.Open("pgx", base); err == nil {
		var limit, reserved, inUse int64
		err := db.QueryRowx(`SELECT current_setting('max_connections')::int, current_setting('superuser_reserved_connections')::int,
			(SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')`).Scan(&limit, &reserved, &inUse)
		if err == nil {
			size = limit - reserved - inUse - connectionsLeftFree
		}
		_ = db.Close()
	}
	size = max(size, connectionsPerInstance)
	postgresBudget.size, postgresBudget.sem = size, semaphore.NewWeighted(size)
	t.Logf("testenv: PostgreSQL connection budget %d (%d instances at once)", size, size/connectionsPerInstance)
}
