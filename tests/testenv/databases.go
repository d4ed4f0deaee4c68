// Package testenv starts the whole service (the real fx graph) for component tests,
// on SQLite and, when CREATORAPI_TEST_POSTGRES_URL is set, on PostgreSQL.
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"path/filepath"
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

// EachDatabase runs fn as a subtest per database, each with a fresh, empty database URL.
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

// NewSQLiteURL returns the URL of a new SQLite file in the test's temp folder.
func NewSQLiteURL(t testing.TB) string {
	return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
}

// NewPostgresURL returns the URL of a new, empty schema dropped after the test, with one
// service instance's connections reserved for it (postgres_budget.go).
func NewPostgresURL(t testing.TB) string {
	base := serviceURL(t, PostgresURLVar, "PostgreSQL", "postgres://postgres@127.0.0.1:5432/postgres")
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "t_" + hex.EncodeToString(b[:])
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
