package sqldb

import (
	"context"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/creatorapi/creatorapi/migrations"
)

// Migrate applies the embedded migrations of the dialect. On PostgreSQL a session lock
// serializes instances that start together.
func (db *DB) Migrate(ctx context.Context) error {
	dir := string(db.Dialect)
	fsys, err := fs.Sub(migrations.FS, dir)
	if err != nil {
		return fmt.Errorf("migrations for %s: %w", dir, err)
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if db.Dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return fmt.Errorf("migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	provider, err := goose.NewProvider(dialect, db.Writer.DB, fsys, opts...)
	if err != nil {
		return fmt.Errorf("migration provider: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("apply migrations: %w", err)
	}
	return nil
}
