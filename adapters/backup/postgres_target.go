package backup

import (
	"context"
	"database/sql"
	"fmt"
)

// refuseNonEmptyPostgres refuses a target database (schema) that already has tables.
func refuseNonEmptyPostgres(ctx context.Context, databaseURL string) error {
	db, err := sql.Open("pgx", databaseURL)
	if err != nil {
		return fmt.Errorf("open the target database: %w", err)
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&tables); err != nil {
		return fmt.Errorf("inspect the target database: %w", err)
	}
	if tables > 0 {
		return fmt.Errorf("the target database has %d tables: restore only into an empty database (one that may be in use is never overwritten)", tables)
	}
	return nil
}
