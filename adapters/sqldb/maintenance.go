package sqldb

import (
	"context"
	"fmt"
	"log/slog"
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

// WarnAboutMaintenance logs the MaintenanceWarnings (the "database maintenance warnings"
// worker, at start).
func (db *DB) WarnAboutMaintenance(ctx context.Context, logger *slog.Logger) error {
	warnings, err := db.MaintenanceWarnings(ctx)
	if err != nil {
		logger.Warn("database maintenance check", "error", err)
	}
	for _, w := range warnings {
		logger.Warn(w)
	}
	return nil
}
