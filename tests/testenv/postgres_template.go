package testenv

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/migrations"
)

// Migrating a PostgreSQL schema takes 1.1-1.6 s (the DDL of every table and index) and a
// run makes about 175 of them; copying a migrated database (CREATE DATABASE ... TEMPLATE,
// the WAL_LOG strategy) takes a quarter of that. So the migrations run once into a
// template database named after their content, and each test gets a copy: a database of
// its own, its tables in "public". The template allows no connections (nothing can change
// it, and a copy fails while anyone is connected to its source); every run of the same
// migrations, of any checkout, reuses it.

// templateDB is the migrated template of this test process, made on first use.
var templateDB struct {
	once sync.Once
	name string
	err  error
}

// NewMigratedPostgresURL returns the URL of a new PostgreSQL database at the latest
// migration, copied from the template and dropped after the test.
func NewMigratedPostgresURL(t testing.TB) string {
	base := serviceURL(t, PostgresURLVar, "PostgreSQL", "postgres://postgres@127.0.0.1:5432/postgres")
	templateDB.once.Do(func() { templateDB.name, templateDB.err = migratedTemplate(base) })
	if templateDB.err != nil {
		t.Fatalf("PostgreSQL at %s: migrated template database: %v", PostgresURLVar, templateDB.err)
	}
	name := "t_" + randomHex(6)
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", PostgresURLVar, err)
	}
	if _, err := admin.ExecContext(context.Background(), "CREATE DATABASE "+name+" TEMPLATE "+templateDB.name); err != nil {
		admin.Close()
		t.Fatalf("PostgreSQL at %s refused CREATE DATABASE: %v", PostgresURLVar, err)
	}
	t.Cleanup(func() {
		_, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
		admin.Close()
	})
	return withDatabase(t, base, name)
}

// migratedTemplate returns the name of the template database of these migrations,
// making it when no earlier run did: migrated under a name of its own, closed to
// connections, then renamed (another process making it at the same time wins the
// rename; the loser drops its copy).
func migratedTemplate(base string) (string, error) {
	name, err := templateName()
	if err != nil {
		return "", err
	}
	ctx := context.Background()
	admin, err := sqlx.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	var exists bool
	if err := admin.GetContext(ctx, &exists, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name); err != nil {
		return "", err
	}
	if exists {
		return name, nil
	}
	building := name + "_" + randomHex(4)
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+building); err != nil {
		return "", err
	}
	if err := migrateDatabase(ctx, base, building); err != nil {
		_, _ = admin.ExecContext(ctx, "DROP DATABASE "+building+" WITH (FORCE)")
		return "", err
	}
	if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+building+" ALLOW_CONNECTIONS false"); err != nil {
		return "", err
	}
	if _, err := admin.ExecContext(ctx, "ALTER DATABASE "+building+" RENAME TO "+name); err != nil {
		_, _ = admin.ExecContext(ctx, "DROP DATABASE "+building+" WITH (FORCE)")
		if pgErr := (*pgconn.PgError)(nil); errors.As(err, &pgErr) && pgErr.Code == "42P04" { // duplicate_database
			return name, nil
		}
		return "", err
	}
	return name, nil
}

// migrateDatabase applies the migrations to the database name on the server of base.
func migrateDatabase(ctx context.Context, base, name string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	u.Path = "/" + name
	dir, err := os.MkdirTemp("", "creatorapi-template-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	db, err := sqldb.Open(ctx, u.String(), dir)
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Migrate(ctx)
}

// templateName is "creatorapi_tmpl_" and a digest of the PostgreSQL migrations' names and
// contents: a changed or added migration makes a new template.
func templateName() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(migrations.FS, "postgres", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(migrations.FS, path)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", path, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("digest the migrations: %w", err)
	}
	return "creatorapi_tmpl_" + hex.EncodeToString(h.Sum(nil))[:16], nil
}

// withDatabase is base with its database replaced by name.
func withDatabase(t testing.TB, base, name string) string {
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("parse %s: %v", PostgresURLVar, err)
	}
	u.Path = "/" + name
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
