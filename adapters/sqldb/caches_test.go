package sqldb

import (
	"context"
	"testing"
	"time"
)

// A cache is used only while its process may trust it; an entry read while an invalidation
// ran is not kept; an invalidation drops the entry; a read in a transaction bypasses it; a
// commit by another connection (what a CLI verb is) empties it within SQLiteTrust.
func TestCacheServesOnlyWhatNoInvalidationCouldHaveMissed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := seenDB(t)
	cache := NewCache[int](db, "things", 10)
	loads := 0
	load := func(v int) func(context.Context) (int, error) {
		return func(context.Context) (int, error) { loads++; return v, nil }
	}
	get := func(want int, loader func(context.Context) (int, error)) {
		t.Helper()
		got, err := cache.Get(ctx, "k", loader)
		if err != nil || got != want {
			t.Fatalf("Get = %d, %v; want %d", got, err, want)
		}
	}

	get(1, load(1))
	get(1, load(1))
	if loads != 2 {
		t.Fatalf("untrusted (no watch running): %d loads, want 2 (every read asks the database)", loads)
	}

	watch := db.Caches().Listener("")
	if err := watch.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = watch.Stop(context.Background()) })
	waitFor(t, func() bool { return db.Caches().Trusted(ctx) })

	loads = 0
	get(1, load(1))
	get(1, load(2)) // served from memory: the loader is not called
	if loads != 1 {
		t.Fatalf("trusted: %d loads, want 1", loads)
	}

	db.Caches().apply("things", "k") // an invalidation heard
	racing := func(context.Context) (int, error) {
		loads++
		db.Caches().apply("things", "k") // heard while this read ran: what it read may be stale
		return 3, nil
	}
	get(3, racing)
	get(4, load(4)) // the racing read was not kept
	get(4, load(5))

	if err := db.WithinTx(ctx, func(ctx context.Context) error {
		got, err := cache.Get(ctx, "k", load(6))
		if got != 6 || err != nil {
			t.Errorf("in a transaction: %d, %v; want the database's 6", got, err)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}

	// Another connection commits (as a CLI verb's process would): the watch empties the cache.
	if _, err := db.Writer.ExecContext(ctx, `INSERT INTO seen (v) VALUES (1)`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(SQLiteWait)
	get(7, load(7))
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition never met")
		}
		time.Sleep(time.Millisecond)
	}
}
