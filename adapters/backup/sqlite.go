package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// copySQLite writes a consistent copy of the live database to dest with VACUUM INTO: it
// reads one snapshot (WAL mode lets writers carry on meanwhile) and writes a compact file.
// It runs on a connection of its own (the service's readers are query_only, which
// VACUUM INTO refuses), never on the single writer, so writes carry on meanwhile.
func copySQLite(ctx context.Context, path, dest string) error {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dest); err != nil {
		return fmt.Errorf("copy the database (VACUUM INTO): %w", err)
	}
	return nil
}

// checkSQLite opens a copy read-only, runs PRAGMA integrity_check and returns its goose
// schema version.
func checkSQLite(ctx context.Context, path string) (int64, error) {
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?mode=ro&_pragma=query_only(1)")
	if err != nil {
		return 0, fmt.Errorf("open the copy: %w", err)
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `PRAGMA integrity_check`)
	if err != nil {
		return 0, fmt.Errorf("integrity check: %w", err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return 0, fmt.Errorf("integrity check: %w", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("integrity check: %w", err)
	}
	if len(problems) > 0 {
		return 0, fmt.Errorf("integrity check failed: %s", strings.Join(problems, "; "))
	}
	var version sql.NullInt64
	err = db.QueryRowContext(ctx, `SELECT MAX(version_id) FROM goose_db_version WHERE is_applied`).Scan(&version)
	if err != nil {
		return 0, fmt.Errorf("read the schema version: %w", err)
	}
	if !version.Valid {
		return 0, errors.New("the database has no schema version (goose_db_version is empty)")
	}
	return version.Int64, nil
}
