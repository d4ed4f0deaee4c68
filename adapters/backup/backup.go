package backup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Source is what a backup copies: the running service's database, and its data folder's
// secrets.
type Source struct {
	DB          *sqldb.DB
	DatabaseURL string
	DataDir     string
	Key         secrets.MasterKey // the key in use (from CREATORAPI_SECRET_KEY or the key file)
	AppVersion  string
	AppRevision string
	Now         func() time.Time
}

// ErrNoPgDump says that pg_dump is not on PATH; the error's text holds the commands to run.
var ErrNoPgDump = errors.New("pg_dump not found")

// Backup writes the backup file out. On SQLite it copies the database online (VACUUM INTO,
// while the service keeps writing), checks the copy (integrity_check) and packs it with
// the master key and the operator token; on PostgreSQL it runs pg_dump (custom format)
// instead, or returns ErrNoPgDump with the commands when pg_dump is not installed.
func (s Source) Backup(ctx context.Context, out string) (Manifest, error) {
	m := Manifest{Format: Format, CreatedAt: s.Now().UTC(), AppVersion: s.AppVersion, AppRevision: s.AppRevision, Database: string(s.DB.Dialect)}
	work, err := os.MkdirTemp(filepath.Dir(out), ".creatorapi-backup-")
	if err != nil {
		return m, fmt.Errorf("work folder next to %s: %w", out, err)
	}
	defer os.RemoveAll(work)
	paths := map[string]string{}
	switch s.DB.Dialect {
	case sqldb.SQLite:
		paths[SQLiteName] = filepath.Join(work, SQLiteName)
		if err := copySQLite(ctx, sqldb.SQLitePath(s.DatabaseURL, s.DataDir), paths[SQLiteName]); err != nil {
			return m, err
		}
		if m.SchemaVersion, err = checkSQLite(ctx, paths[SQLiteName]); err != nil {
			return m, err
		}
	case sqldb.Postgres:
		paths[PostgresDumpName] = filepath.Join(work, PostgresDumpName)
		if err := pgDump(ctx, s.DatabaseURL, paths[PostgresDumpName]); err != nil {
			return m, err
		}
		// pg_dump's snapshot is taken after this read: a migration in between would be
		// newer, never older, and restore checks the version against its own build.
		if m.SchemaVersion, _, err = s.DB.MigrationStatus(ctx); err != nil {
			return m, err
		}
	}
	paths[KeyName] = filepath.Join(work, KeyName)
	if err := secrets.WriteKeyFile(work, KeyName, s.Key); err != nil {
		return m, err
	}
	token := filepath.Join(s.DataDir, TokenName)
	if _, err := os.Stat(token); err == nil {
		paths[TokenName] = token
	}
	for _, name := range []string{SQLiteName, PostgresDumpName, KeyName, TokenName} {
		if paths[name] == "" {
			continue
		}
		f, err := describe(name, paths[name])
		if err != nil {
			return m, err
		}
		m.Files = append(m.Files, f)
	}
	return m, writeArchive(out, m, paths)
}

// pgDump runs pg_dump on databaseURL into file, or says what to run without it.
func pgDump(ctx context.Context, databaseURL, file string) error {
	conn, schema := libpqURL(databaseURL)
	args := []string{"--format=custom", "--no-owner", "--no-privileges", "--file=" + file}
	if schema != "" {
		args = append(args, "--schema="+schema)
	}
	bin, err := exec.LookPath("pg_dump")
	if err != nil {
		return fmt.Errorf("%w: install the PostgreSQL client (the server's major version or newer), or run\n"+
			"  pg_dump --format=custom --no-owner --no-privileges --file=creatorapi.pgdump '%s'\n"+
			"and keep CREATORAPI_SECRET_KEY (or the data folder's %s) with it: the dump's signing secrets are sealed under it", ErrNoPgDump, conn, KeyName)
	}
	cmd := exec.CommandContext(ctx, bin, append(args, conn)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pg_dump: %w: %s", err, out)
	}
	return nil
}
