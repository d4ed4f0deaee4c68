package ratelimit

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// Two stores on one SQLite file stand for two instances; 16 goroutines hammer one
// subject through both (run it with -race): exactly the quota is admitted, and after
// both stores close no block is left leased.
func TestLeasedStoresAdmitExactlyTheQuotaUnderConcurrency(t *testing.T) {
	ctx := context.Background()
	dbs := sharedSQLite(t, 2)
	var stores []*Leased
	for _, db := range dbs {
		stores = append(stores, NewDatabase(db, 50*time.Millisecond))
	}
	first := dbs[0]
	w := ratelimit.WindowsAt(time.Date(2026, 11, 27, 0, 0, 10, 0, time.UTC))
	q := ratelimit.Quota{PerMinute: 97, PerDay: 1000}
	var mu sync.Mutex
	admitted := 0
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				_, ok, err := stores[g%2].Take(ctx, "key:k", w, q)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					mu.Lock()
					admitted++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if admitted != q.PerMinute {
		t.Fatalf("admitted %d of 320 against %d a minute", admitted, q.PerMinute)
	}
	for _, s := range stores {
		if err := s.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var leased, claimed int
	if err := first.Reader.QueryRowxContext(ctx, `SELECT minute_leased, minute_count FROM rate_limit_counters WHERE subject = 'key:k'`).Scan(&leased, &claimed); err != nil {
		t.Fatal(err)
	}
	if leased != 0 || claimed != q.PerMinute {
		t.Fatalf("after both closed: %d leased, %d claimed; want 0 and %d", leased, claimed, q.PerMinute)
	}
}

// sharedSQLite opens n migrated handles on one SQLite file: n instances sharing a database.
func sharedSQLite(t *testing.T, n int) []*sqldb.DB {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rl.db")
	dbs := make([]*sqldb.DB, n)
	for i := range dbs {
		db, err := sqldb.Open(ctx, "sqlite://"+path, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
		dbs[i] = db
	}
	return dbs
}
