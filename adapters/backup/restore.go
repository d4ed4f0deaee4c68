package backup

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Target is where a restore goes: an empty data folder, and an SQLite file that does not
// exist yet or an empty PostgreSQL database (schema).
type Target struct {
	DataDir      string
	SQLitePath   string // the database file on SQLite; empty on PostgreSQL
	DatabaseURL  string // on PostgreSQL
	LatestSchema int64  // the newest migration this build knows
}

// Restore checks the backup in (format, every checksum, the schema version against this
// build, the database's integrity) and only then puts it in place: the master key and
// operator token into the data folder (0600), and the database. It refuses a target that
// holds a database already: it never overwrites one that may be in use.
func Restore(ctx context.Context, in string, t Target) (Manifest, error) {
	if err := os.MkdirAll(t.DataDir, 0o700); err != nil {
		return Manifest{}, fmt.Errorf("create the data folder: %w", err)
	}
	workDir := t.DataDir
	if t.SQLitePath != "" {
		if err := refuseExisting(t.SQLitePath); err != nil {
			return Manifest{}, err
		}
		workDir = filepath.Dir(t.SQLitePath)
		if err := os.MkdirAll(workDir, 0o700); err != nil {
			return Manifest{}, fmt.Errorf("create the database folder: %w", err)
		}
	}
	work, err := os.MkdirTemp(workDir, ".creatorapi-restore-")
	if err != nil {
		return Manifest{}, fmt.Errorf("work folder: %w", err)
	}
	defer os.RemoveAll(work)
	m, paths, err := readArchive(in, work)
	if err != nil {
		return m, err
	}
	if m.SchemaVersion > t.LatestSchema {
		return m, invalid("schema version %d is newer than this build's %d: restore with the build that made it (%s)", m.SchemaVersion, t.LatestSchema, m.AppVersion)
	}
	if paths[KeyName] == "" {
		return m, invalid("no %s: the signing secrets could not be opened", KeyName)
	}
	for _, name := range []string{KeyName, TokenName} {
		if err := refuseDifferent(filepath.Join(t.DataDir, name), paths[name]); err != nil {
			return m, err
		}
	}
	switch {
	case t.SQLitePath != "" && m.Database == string(sqldb.SQLite) && paths[SQLiteName] != "":
		version, err := checkSQLite(ctx, paths[SQLiteName])
		if err != nil {
			return m, invalid("%v", err)
		}
		if version != m.SchemaVersion {
			return m, invalid("the database is at schema version %d, the manifest says %d", version, m.SchemaVersion)
		}
	case t.SQLitePath == "" && m.Database == string(sqldb.Postgres) && paths[PostgresDumpName] != "":
		if err := refuseNonEmptyPostgres(ctx, t.DatabaseURL); err != nil {
			return m, err
		}
	default:
		return m, invalid("a %s backup cannot be restored into this database (CREATORAPI_DATABASE_URL)", m.Database)
	}
	for _, name := range []string{KeyName, TokenName} {
		if err := placeSecret(filepath.Join(t.DataDir, name), paths[name]); err != nil {
			return m, err
		}
	}
	if t.SQLitePath != "" {
		if err := refuseExisting(t.SQLitePath); err != nil { // again: a service may have started meanwhile
			return m, err
		}
		if err := os.Rename(paths[SQLiteName], t.SQLitePath); err != nil {
			return m, fmt.Errorf("put the database in place: %w", err)
		}
		return m, nil
	}
	return m, pgRestore(ctx, t.DatabaseURL, paths[PostgresDumpName])
}

// refuseExisting refuses a database file (or its WAL) that exists.
func refuseExisting(path string) error {
	for _, p := range []string{path, path + "-wal"} {
		if _, err := os.Stat(p); err == nil {
			return fmt.Errorf("%s exists: restore only into an empty data folder (a database there may be in use; move it away first)", p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("check %s: %w", p, err)
		}
	}
	return nil
}

// refuseDifferent refuses a secret file in the target that differs from the backup's.
func refuseDifferent(target, extracted string) error {
	if extracted == "" {
		return nil
	}
	have, err := os.ReadFile(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", target, err)
	}
	want, err := os.ReadFile(extracted)
	if err != nil {
		return err
	}
	if !bytes.Equal(bytes.TrimSpace(have), bytes.TrimSpace(want)) {
		return fmt.Errorf("%s exists and differs from the backup's: restore into an empty data folder", target)
	}
	return nil
}

// placeSecret moves an extracted secret into the data folder unless the same one is there.
func placeSecret(target, extracted string) error {
	if extracted == "" {
		return nil
	}
	if _, err := os.Stat(target); err == nil {
		return nil // refuseDifferent found it equal
	}
	if err := os.Chmod(extracted, 0o600); err != nil {
		return err
	}
	if err := os.Rename(extracted, target); err != nil {
		return fmt.Errorf("put %s in place: %w", filepath.Base(target), err)
	}
	return nil
}
