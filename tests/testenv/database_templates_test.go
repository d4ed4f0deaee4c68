package testenv

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// NewPostgresURL hands each test a database of its own, already at the newest migration
// (a copy of the template), and a row written in one copy is not in another; dropped at
// the end of the test. NewEmptyPostgresURL is an empty schema, for migration tests.
func TestNewPostgresURLIsAMigratedCopyOfItsOwn(t *testing.T) {
	expectMigratedCopies(t, NewPostgresURL, NewEmptyPostgresURL,
		`SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`)
}

// NewSQLiteURL is likewise a migrated file of its own; NewEmptySQLiteURL has no tables.
func TestNewSQLiteURLIsAMigratedCopyOfItsOwn(t *testing.T) {
	expectMigratedCopies(t, NewSQLiteURL, NewEmptySQLiteURL, `SELECT count(*) FROM sqlite_master WHERE type = 'table'`)
}

// expectMigratedCopies checks two databases of newURL (migrated, apart) and one of
// emptyURL (no table, counted by countTables).
func expectMigratedCopies(t *testing.T, newURL, emptyURL func(testing.TB) string, countTables string) {
	ctx := context.Background()
	open := func(u string) *sqldb.DB {
		db, err := sqldb.Open(ctx, u, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return db
	}
	first, second := open(newURL(t)), open(newURL(t))
	for name, db := range map[string]*sqldb.DB{"first": first, "second": second} {
		current, expected, err := db.MigrationStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(expected, current); diff != "" || expected == 0 {
			t.Errorf("%s copy: migration version (-want +got):\n%s", name, diff)
		}
	}
	if _, err := first.Writer.ExecContext(ctx, `INSERT INTO goose_db_version (version_id, is_applied) VALUES (999999, true)`); err != nil {
		t.Fatal(err)
	}
	var seen int
	if err := second.Writer.GetContext(ctx, &seen, `SELECT count(*) FROM goose_db_version WHERE version_id = 999999`); err != nil || seen != 0 {
		t.Fatalf("the second copy sees the first one's row (%d, %v)", seen, err)
	}

	empty := open(emptyURL(t))
	var tables int
	if err := empty.Writer.GetContext(ctx, &tables, countTables); err != nil || tables != 0 {
		t.Fatalf("the empty database has %d tables (%v); want none", tables, err)
	}
}
