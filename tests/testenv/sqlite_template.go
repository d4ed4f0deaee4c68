package testenv

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Migrating a SQLite file costs about 40 ms of CPU, and a run makes about 300 of them. So
// the migrations run once per test process into a template file, and each NewSQLiteURL is
// a copy of its bytes; the service's own Migrate then finds the version table current.
// NewEmptySQLiteURL is a file that does not exist yet, for the migrations' own tests.

var sqliteTemplate struct {
	once  sync.Once
	dir   string
	bytes []byte
	err   error
}

// migratedSQLite returns the bytes of a migrated SQLite database, made on first use.
func migratedSQLite() ([]byte, error) {
	sqliteTemplate.once.Do(func() {
		sqliteTemplate.bytes, sqliteTemplate.err = buildSQLiteTemplate()
	})
	return sqliteTemplate.bytes, sqliteTemplate.err
}

func buildSQLiteTemplate() ([]byte, error) {
	dir, err := os.MkdirTemp("", "creatorapi-sqlite-template-")
	if err != nil {
		return nil, fmt.Errorf("template folder: %w", err)
	}
	sqliteTemplate.dir = dir
	ctx := context.Background()
	db, err := sqldb.Open(ctx, "sqlite://"+filepath.Join(dir, "build.db"), dir)
	if err != nil {
		return nil, fmt.Errorf("open the SQLite template: %w", err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return nil, fmt.Errorf("migrate the SQLite template: %w", err)
	}
	// One self-contained file, whatever the write-ahead log still holds.
	built := filepath.Join(dir, "migrated.db")
	if _, err := db.Writer.ExecContext(ctx, `VACUUM INTO ?`, built); err != nil {
		return nil, fmt.Errorf("write the SQLite template: %w", err)
	}
	return os.ReadFile(built)
}

// removeSQLiteTemplate deletes the template's folder (Main calls it after the run).
func removeSQLiteTemplate() {
	if sqliteTemplate.dir != "" {
		_ = os.RemoveAll(sqliteTemplate.dir)
	}
}

// NewSQLiteURL returns the URL of a new SQLite file in the test's temp folder, already
// migrated (a copy of the template).
func NewSQLiteURL(t testing.TB) string {
	t.Helper()
	template, err := migratedSQLite()
	if err != nil {
		t.Fatalf("SQLite template: %v", err)
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := os.WriteFile(path, template, 0o600); err != nil {
		t.Fatalf("copy the SQLite template: %v", err)
	}
	return "sqlite://" + path
}

// NewEmptySQLiteURL returns the URL of a SQLite file not yet created, in the test's temp
// folder: for the tests of the migrations themselves.
func NewEmptySQLiteURL(t testing.TB) string {
	return "sqlite://" + filepath.Join(t.TempDir(), "test.db")
}
