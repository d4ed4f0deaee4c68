package sqldb

import (
	"context"
	"fmt"
)

// MaintenanceWarnings says what the server's settings leave to the operator. On
// PostgreSQL with autovacuum off no table is ever analysed or vacuumed: the planner keeps
// the plans of an empty database (the webhook claim and the outbox poll then scan) and
// dead rows of the queue tables pile up.
func (db *DB) MaintenanceWarnings(ctx context.Context) ([]string, error) {
	if db.Dialect != Postgres {
		return nil, nil
	}
	var autovacuum, trackCounts string
	err := db.Reader.QueryRowContext(ctx, `SELECT current_setting('autovacuum'), current_setting('track_counts')`).Scan(&autovacuum, &trackCounts)
	if err != nil {
		return nil, fmt.Errorf("read maintenance settings: %w", err)
	}
	var out []string
	if autovacuum != "on" || trackCounts != "on" {
		out = append(out, fmt.Sprintf("PostgreSQL autovacuum=%s track_counts=%s: tables are never analysed or vacuumed; "+
			"turn autovacuum on, or run VACUUM (ANALYZE) on this database at least hourly under load (docs/operations.md)", autovacuum, trackCounts))
	}
	return out, nil
}
