package backup

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// refuseNonEmptyPostgres refuses a target database (schema) that already has tables. It
// connects as the service does (the URL's connect_timeout and tcp_user_timeout apply).
func refuseNonEmptyPostgres(ctx context.Context, databaseURL string) error {
	db, err := sqldb.Open(ctx, databaseURL, "")
	if err != nil {
		return fmt.Errorf("open the target database: %w", err)
	}
	defer db.Close()
	var tables int
	if err := db.Writer.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&tables); err != nil {
		return fmt.Errorf("inspect the target database: %w", err)
	}
	if tables > 0 {
		return fmt.Errorf("the target database has %d tables: restore only into an empty database (one that may be in use is never overwritten)", tables)
	}
	return nil
}
