package backup

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
)

// libpqURL turns the service's database URL into one pg_dump and pg_restore accept:
// search_path is a pgx run-time parameter that libpq refuses, so it becomes the schema
// to dump instead.
func libpqURL(databaseURL string) (conn, schema string) {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return databaseURL, ""
	}
	q := u.Query()
	schema = q.Get("search_path")
	q.Del("search_path")
	u.RawQuery = q.Encode()
	return u.String(), schema
}

// pgRestore loads a custom-format dump into databaseURL, or says what to run without
// pg_restore.
func pgRestore(ctx context.Context, databaseURL, file string) error {
	conn, _ := libpqURL(databaseURL)
	args := []string{"--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", "--dbname=" + conn, file}
	bin, err := exec.LookPath("pg_restore")
	if err != nil {
		return fmt.Errorf("pg_restore not found: install the PostgreSQL client, or extract %s from the backup (tar -xzf) and run\n"+
			"  pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname='%s' %s", PostgresDumpName, conn, PostgresDumpName)
	}
	if out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("pg_restore: %w: %s", err, out)
	}
	return nil
}
