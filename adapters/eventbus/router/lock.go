package router

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// lockConsumer keeps a rebuild and a broker transport's per-event transactions of one
// consumer apart, until the transaction of ctx ends (PostgreSQL only: SQLite has a single
// writer). The SQL transport's batches need no such lock: Positions.Rewind updates the
// offsets rows they hold. A broker's transactions have no such row, so each takes this
// lock shared, and a rebuild takes it exclusive: it waits for the event being applied,
// and the events after it wait for the rebuild and then find its ledger rows. The key
// includes the schema (advisory locks are per database; deployments may share one).
func lockConsumer(ctx context.Context, db *sqldb.DB, consumer string, exclusive bool) error {
	if db.Dialect != sqldb.Postgres {
		return nil
	}
	fn := "pg_advisory_xact_lock_shared"
	if exclusive {
		fn = "pg_advisory_xact_lock"
	}
	if _, err := db.Write(ctx).ExecContext(ctx, `SELECT `+fn+`(hashtextextended($1 || current_schema(), 0))`, "creatorapi.events:"+consumer); err != nil {
		return fmt.Errorf("lock consumer %s: %w", consumer, err)
	}
	return nil
}

// LockShared takes consumer's lock shared in the transaction of ctx: a broker transport's
// batch transaction, kept apart from a rebuild of the consumer (lockConsumer).
func LockShared(ctx context.Context, db *sqldb.DB, consumer string) error {
	return lockConsumer(ctx, db, consumer, false)
}
