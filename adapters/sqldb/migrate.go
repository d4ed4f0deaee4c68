package sqldb

import (
	"context"
	"fmt"
	"hash/fnv"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/creatorapi/creatorapi/migrations"
)

// Migrate applies the embedded migrations of the dialect. On PostgreSQL a session lock
// serializes instances that start together on one schema.
func (db *DB) Migrate(ctx context.Context) error {
	var opts []goose.ProviderOption
	if db.Dialect == Postgres {
		var schema string
		if err := db.Writer.GetContext(ctx, &schema, "SELECT current_schema()"); err != nil {
			return fmt.Errorf("migration lock: current schema: %w", err)
		}
		// Instances starting together wait for the first one's migrations: look again every
		// second (goose's default is every 5 s), for up to 5 minutes.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300), lock.WithLockID(MigrationLockID(schema)))
		if err != nil {
			return fmt.Errorf("migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	provider, err := db.migrations(opts...)
	if err != nil {
		return err
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}

// MigrationStatus reports the version the database is at and the version the embedded
// migrations of this binary reach (the last one's number: it grows as migrations are added).
func (db *DB) MigrationStatus(ctx context.Context) (current, expected int64, err error) {
	provider, err := db.migrations()
	if err != nil {
		return 0, 0, err
	}
	sources := provider.ListSources()
	if len(sources) > 0 {
		expected = sources[len(sources)-1].Version
	}
	if current, err = provider.GetDBVersion(ctx); err != nil {
		return 0, expected, fmt.Errorf("read migration version: %w", err)
	}
	return current, expected, nil
}

// migrations is a goose provider over the dialect's embedded migrations.
func (db *DB) migrations(opts ...goose.ProviderOption) (*goose.Provider, error) {
	dir := string(db.Dialect)
	fsys, err := fs.Sub(migrations.FS, dir)
	if err != nil {
		return nil, fmt.Errorf("migrations for %s: %w", dir, err)
	}
	dialect := goose.DialectSQLite3
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
	}
	provider, err := goose.NewProvider(dialect, db.Writer.DB, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("migration provider: %w", err)
	}
	return provider, nil
}

// MigrationLockID is the advisory lock the migrations of schema hold. Advisory locks are
// per database, so one id for every schema would make deployments (and parallel tests)
// sharing a database wait for each other's migrations; "public" keeps goose's default id,
// the one every earlier release took (TestMigrationsOfOtherSchemasDoNotWait).
func MigrationLockID(schema string) int64 {
	if schema == "public" {
		return lock.DefaultLockID
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte("creatorapi migrations " + schema))
	return int64(h.Sum64())
}
