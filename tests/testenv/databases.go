// Package testenv starts the whole service (the real fx graph) for component tests,
// on SQLite and, when CREATORAPI_TEST_POSTGRES_URL is set, on PostgreSQL.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"

	"github.com/jmoiron/sqlx"
)

// PostgresURLVar names the variable that enables the PostgreSQL runs.
const PostgresURLVar = "CREATORAPI_TEST_POSTGRES_URL"

// Dialects the suites run on.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// EachDatabase runs fn as a subtest per database, each with a fresh database URL (the
// PostgreSQL one already migrated: postgres_template.go).
// The runs are parallel, and so is a top-level caller (parallel.go), unless the test
// called Serial. Without CREATORAPI_TEST_POSTGRES_URL the PostgreSQL run is skipped,
// loudly; under CI (CI=true) a missing variable is a failure, never a skip.
func EachDatabase(t *testing.T, fn func(t *testing.T, databaseURL string)) {
	if !isSerial(t) {
		parallelTopLevel(t)
	}
	run(t, SQLite, func(t *testing.T) { fn(t, NewSQLiteURL(t)) })
	run(t, Postgres, func(t *testing.T) { fn(t, NewPostgresURL(t)) })
}

// NewPostgresURL returns the URL of a new database, already migrated (a copy of the
// migrated template, postgres_template.go), dropped after the test, with one service
// instance's connections reserved for it (postgres_budget.go).
func NewPostgresURL(t testing.TB) string {
	base := serviceURL(t, PostgresURLVar, "PostgreSQL", "postgres://postgres@127.0.0.1:5432/postgres")
	u := newMigratedPostgresDatabase(t, base)
	reserveForURL(t, base, u) // the instance the test starts on it (postgres_budget.go)
	return u
}

// NewEmptyPostgresURL returns the URL of a new, empty schema of the server's database,
// dropped after the test: for the tests of the migrations themselves, which start from
// nothing, and of what schemas sharing a database do to each other.
func NewEmptyPostgresURL(t testing.TB) string {
	base := serviceURL(t, PostgresURLVar, "PostgreSQL", "postgres://postgres@127.0.0.1:5432/postgres")
	schema := "t_" + randomHex(6)
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresURLVar, err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL at %s is unreachable or refused CREATE SCHEMA: %v", PostgresURLVar, err)
	}
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
		admin.Close()
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresURLVar, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	reserveForURL(t, base, u.String()) // the instance the test starts on it (postgres_budget.go)
	return u.String()
}

// randomHex is n random bytes in hex: unique names for databases and schemas.
func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
