package tests

import (
	"context"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3/lock"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Migrations of one schema do not wait for another's: while a session holds the lock of
// the "public" schema (goose's default id, which every schema took before), a fresh
// schema in the same database migrates at once. Parallel tests depend on it; so do
// deployments sharing a database.
func TestMigrationsOfOtherSchemasDoNotWait(t *testing.T) {
	testenv.Parallel(t)
	dbURL := testenv.NewEmptyPostgresURL(t)
	ctx := context.Background()
	holder, err := sqlx.Open("pgx", dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	conn, err := holder.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", lock.DefaultLockID); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", lock.DefaultLockID) //nolint:errcheck // released with the session anyway

	db, err := sqldb.Open(ctx, dbURL, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	done := make(chan error, 1)
	go func() { done <- db.Migrate(ctx) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("migrate: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the migration waited 30 s for the lock another schema's migrations hold")
	}
}
