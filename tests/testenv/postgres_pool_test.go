package testenv

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/jmoiron/sqlx"
)

// In a package run by Main, a finished test's database serves the next test emptied: no
// row, the sequences at their start. One whose schema the test changed is dropped instead.
func TestFinishedPostgresDatabaseServesTheNextTestEmptied(t *testing.T) {
	enablePostgresPool()
	t.Cleanup(func() {
		drainPostgresPool()
		postgresPool.Lock()
		postgresPool.enabled = false
		postgresPool.Unlock()
	})
	ctx := context.Background()
	open := func(t *testing.T, u string) *sqlx.DB {
		db, err := sqlx.Open("pgx", u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	exec := func(t *testing.T, db *sqlx.DB, statement string) {
		if _, err := db.ExecContext(ctx, statement); err != nil {
			t.Fatalf("%s: %v", statement, err)
		}
	}

	var used string
	t.Run("a test writes rows", func(t *testing.T) {
		used = NewPostgresURL(t)
		db := open(t, used)
		exec(t, db, `INSERT INTO catalog_versions (workspace_id, version) VALUES ('ws_1', 7)`)
		exec(t, db, `SELECT nextval('watermill_events_offset_seq'), nextval('watermill_events_offset_seq')`)
	})
	t.Run("the next test gets the database empty", func(t *testing.T) {
		u := NewPostgresURL(t)
		if u != used {
			t.Fatalf("got %s; want the finished test's %s again", u, used)
		}
		db := open(t, u)
		var rows, next int
		if err := db.GetContext(ctx, &rows, `SELECT count(*) FROM catalog_versions`); err != nil || rows != 0 {
			t.Errorf("catalog_versions has %d rows (%v); want none", rows, err)
		}
		if err := db.GetContext(ctx, &next, `SELECT nextval('watermill_events_offset_seq')`); err != nil || next != 1 {
			t.Errorf("the outbox sequence gives %d (%v); want 1", next, err)
		}
		exec(t, db, `ALTER TABLE catalog_versions ADD COLUMN note TEXT`)
	})
	t.Run("a database whose schema changed is not reused", func(t *testing.T) {
		if u := NewPostgresURL(t); u == used {
			t.Fatalf("got %s again, whose schema the previous test changed", u)
		}
	})
	var exists bool
	admin := open(t, databaseURL(postgresPool.base, "postgres"))
	u, err := url.Parse(used)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if err := admin.GetContext(ctx, &exists, `SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)`, name); err != nil || exists {
		t.Errorf("the changed database still exists (%v)", err)
	}
}
