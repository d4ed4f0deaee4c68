package sqldb

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// Deferred items are written once, in order, just before WithinTx commits; items taken
// back with DeferredRollback and a rolled back transaction's items are never written;
// outside a transaction Add refuses, so the caller writes at once.
func TestDeferredWritesFlushBeforeCommitAndFollowSavepoints(t *testing.T) {
	ctx := context.Background()
	db := seenDB(t)
	var flushes [][]int
	d := NewDeferred(func(ctx context.Context, items []int) error {
		flushes = append(flushes, slices.Clone(items))
		return writeSeen(ctx, db, items)
	})
	if d.Add(ctx, 99) {
		t.Fatal("Add outside a transaction deferred the item")
	}
	err := db.WithinTx(ctx, func(ctx context.Context) error {
		d.Add(ctx, 1)
		mark := DeferredMark(ctx)
		d.Add(ctx, 2) // an attempt rolled back to its savepoint
		d.Add(ctx, 3)
		DeferredRollback(ctx, mark)
		d.Add(ctx, 4)
		var n int
		if err := db.Write(ctx).GetContext(ctx, &n, `SELECT COUNT(*) FROM seen`); err != nil || n != 0 {
			t.Errorf("before the commit %d rows are written (err %v), want 0", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	rolledBack := db.WithinTx(ctx, func(ctx context.Context) error {
		d.Add(ctx, 5)
		return errors.New("fails")
	})
	if rolledBack == nil {
		t.Fatal("want the failing transaction's error")
	}
	var got []int
	if err := db.Writer.SelectContext(ctx, &got, `SELECT v FROM seen ORDER BY rowid`); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{1, 4}) || len(flushes) != 1 {
		t.Fatalf("written %v in %d flushes (%v), want [1 4] in one", got, len(flushes), flushes)
	}
}

// FlushDeferred writes what was deferred so far at once, inside the transaction (a
// rebuild does so per page); the commit then writes only what came after.
func TestFlushDeferredWritesInsideTheTransaction(t *testing.T) {
	ctx := context.Background()
	db := seenDB(t)
	flushes := 0
	d := NewDeferred(func(ctx context.Context, items []int) error {
		flushes++
		return writeSeen(ctx, db, items)
	})
	err := db.WithinTx(ctx, func(ctx context.Context) error {
		d.Add(ctx, 1)
		if err := FlushDeferred(ctx); err != nil {
			return err
		}
		var n int
		if err := db.Write(ctx).GetContext(ctx, &n, `SELECT COUNT(*) FROM seen`); err != nil || n != 1 {
			t.Errorf("after FlushDeferred %d rows in the transaction (err %v), want 1", n, err)
		}
		d.Add(ctx, 2)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	if err := db.Writer.SelectContext(ctx, &got, `SELECT v FROM seen ORDER BY rowid`); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, []int{1, 2}) || flushes != 2 {
		t.Fatalf("written %v in %d flushes, want [1 2] in 2", got, flushes)
	}
}

// seenDB opens a SQLite database with one table, seen, that the deferred writes fill.
func seenDB(t *testing.T) *DB {
	t.Helper()
	ctx := context.Background()
	db, err := Open(ctx, "sqlite://"+filepath.Join(t.TempDir(), "d.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Writer.ExecContext(ctx, `CREATE TABLE seen (v INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return db
}

// writeSeen inserts items into seen, in the transaction of ctx.
func writeSeen(ctx context.Context, db *DB, items []int) error {
	for _, v := range items {
		if _, err := db.Write(ctx).ExecContext(ctx, `INSERT INTO seen (v) VALUES (?)`, v); err != nil {
			return err
		}
	}
	return nil
}
