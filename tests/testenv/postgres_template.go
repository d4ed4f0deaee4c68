package testenv

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/url"
	"sync"
	"testing"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/migrations"
)

// Migrating a PostgreSQL schema costs 1.1-1.6 s (the DDL of every migration), and a run
// makes about 175 databases. So the migrations run once, into a template database named
// after the migrations' content, and every test database is a copy of it: CREATE DATABASE
// ... TEMPLATE (PostgreSQL 15's WAL_LOG strategy copies block by block, no checkpoint).
// The service's own Migrate then finds the version table current and does nothing. The
// template outlives the run: the next run with the same migrations reuses it, and a
// changed migration gives another name. Tests of the migrations themselves start from an
// empty schema instead (NewEmptyPostgresURL).

var postgresTemplate struct {
	once sync.Once
	name string
	err  error
}

// templateName is the template of the current migrations: a hash of their files.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("hash migrations: %w", err)
	}
	return "creatorapi_tpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// migratedTemplate returns the template database's name, making it on first use. It is
// built under another name and renamed when migrated, so that a concurrent test process
// never copies a half-migrated template; the loser of a race drops its own.
func migratedTemplate(ctx context.Context, admin *sqlx.DB, base string) (string, error) {
	postgresTemplate.once.Do(func() {
		postgresTemplate.name, postgresTemplate.err = buildTemplate(ctx, admin, base)
	})
	return postgresTemplate.name, postgresTemplate.err
}

func buildTemplate(ctx context.Context, admin *sqlx.DB, base string) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	var exists bool
	if err := admin.GetContext(ctx, &exists, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name); err != nil {
		return "", fmt.Errorf("look for the template: %w", err)
	}
	if exists {
		return name, nil
	}
	building := name + "_" + randomHex(4)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", fmt.Errorf("create the template: %w", err)
	}
	if err := migrateDatabase(ctx, databaseURL(base, building)); err != nil {
		dropDatabase(ctx, admin, building)
		return "", err
	}
	if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		// Another process made it meanwhile: use theirs.
		dropDatabase(ctx, admin, building)
	}
	return name, nil
}

// migrateDatabase applies the migrations to the database at u and closes it.
func migrateDatabase(ctx context.Context, u string) error {
	db, err := sqldb.Open(ctx, u, "")
	if err != nil {
		return fmt.Errorf("open the template: %w", err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate the template: %w", err)
	}
	return nil
}

// databaseURL is base pointing at another database of the same server.
func databaseURL(base, database string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	u.Path = "/" + database
	return u.String()
}

// cloneTemplate creates database name as a copy of the migrated template.
func cloneTemplate(ctx context.Context, admin *sqlx.DB, base, name string) error {
	template, err := migratedTemplate(ctx, admin, base)
	if err != nil {
		return err
	}
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+template); err != nil {
		return fmt.Errorf("copy the template %s: %w", template, err)
	}
	return nil
}

// newMigratedPostgresDatabase returns the URL of an empty migrated database: an emptied one
// from the pool (postgres_pool.go) or a new copy of the template. At the end of t it goes
// back to the pool or is dropped (closing what still connects to it).
func newMigratedPostgresDatabase(t testing.TB, base string) string {
	t.Helper()
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresURLVar, err)
	}
	ctx := context.Background()
	name := takePooledDatabase()
	if name == "" {
		name = "t_" + randomHex(6)
		if err := cloneTemplate(ctx, admin, base, name); err != nil {
			admin.Close()
			t.Fatalf("PostgreSQL at %s: %v", PostgresURLVar, err)
		}
	}
	t.Cleanup(func() {
		defer admin.Close()
		if pooling(base, name) {
			releaseDatabase(ctx, admin, base, postgresTemplate.name, name)
			return
		}
		dropDatabase(ctx, admin, name)
	})
	return databaseURL(base, name)
}

// dropDatabase drops name, closing what still connects to it. Its error is ignored: at
// worst a stray test database is left on the server, which fails no test.
func dropDatabase(ctx context.Context, admin *sqlx.DB, name string) {
	_, _ = admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
}
