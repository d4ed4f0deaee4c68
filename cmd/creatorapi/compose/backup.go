package compose

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/backup"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo"
)

// BackupSource is what `creatorapi backup` copies (adapters/backup).
type BackupSource = backup.Source

// BackupManifest describes a backup file.
type BackupManifest = backup.Manifest

func newBackupSource(cfg Config, db *sqldb.DB, key secrets.MasterKey, clock platform.Clock) *BackupSource {
	b := buildinfo.Read()
	return &backup.Source{DB: db, DatabaseURL: cfg.DatabaseURL, DataDir: cfg.DataDir, Key: key,
		AppVersion: b.Version, AppRevision: b.Revision, Now: clock.Now}
}

// Restore runs `creatorapi restore`: no module starts (the target must stay empty until
// the backup is checked).
func Restore(ctx context.Context, cfg Config, in string) (BackupManifest, error) {
	t := backup.Target{DataDir: cfg.DataDir, SQLitePath: sqldb.SQLitePath(cfg.DatabaseURL, cfg.DataDir), DatabaseURL: cfg.DatabaseURL}
	dialect := sqldb.SQLite
	if t.SQLitePath == "" {
		dialect = sqldb.Postgres
	}
	latest, err := sqldb.LatestMigration(dialect)
	if err != nil {
		return BackupManifest{}, err
	}
	t.LatestSchema = latest
	return backup.Restore(ctx, in, t)
}
