package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// pruneBatch bounds one delete, so that pruning never holds the writer for long.
const pruneBatch = 1000

// Retention deletes the attempt log and finished deliveries past retention. These
// maintenance statements span workspaces by design: retention is the same for all.
type Retention struct {
	db                         *sqldb.DB
	attempts, deliveries, sent string
	health, alerts             string
}

// NewRetention prepares the statements for db's dialect.
func NewRetention(db *sqldb.DB) *Retention {
	return &Retention{
		db: db,
		attempts: db.Rebind(`DELETE FROM webhook_attempts WHERE (delivery_id, number) IN
			(SELECT delivery_id, number FROM webhook_attempts WHERE attempted_at < ? LIMIT ?)`),
		deliveries: deliveriesPrune(db),
		sent: db.Rebind(`DELETE FROM webhook_notices WHERE id IN
			(SELECT id FROM webhook_notices WHERE sent_at IS NOT NULL AND sent_at < ? LIMIT ?)`),
		health: db.Rebind(`DELETE FROM webhook_health_hourly WHERE (subscription_id, hour, bucket) IN
			(SELECT subscription_id, hour, bucket FROM webhook_health_hourly WHERE hour < ? LIMIT ?)`),
		alerts: db.Rebind(`DELETE FROM webhook_failing_alerts WHERE (subscription_id, failing_since) IN
			(SELECT subscription_id, failing_since FROM webhook_failing_alerts WHERE created_at < ? LIMIT ?)`),
	}
}

// deliveriesPrune deletes a batch of finished deliveries with their remaining attempts. On
// SQLite the attempts go by the foreign key's ON DELETE CASCADE; PostgreSQL has no such
// key (migration 00031: its per-row check share-locked the delivery at every attempt), so
// the same statement deletes them, and answers how many deliveries went.
func deliveriesPrune(db *sqldb.DB) string {
	const due = `SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ? LIMIT ?`
	if db.Dialect == sqldb.Postgres {
		return db.Rebind(`WITH gone AS (DELETE FROM webhook_deliveries WHERE id IN (` + due + `) RETURNING id),
			attempts AS (DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM gone))
			SELECT COUNT(*) FROM gone`)
	}
	return db.Rebind(`DELETE FROM webhook_deliveries WHERE id IN (` + due + `)`)
}

// Prune deletes, batch by batch, attempts made before before, deliveries finished before
// it (with their remaining attempts), notices sent before it, the health rollup's hours
// before it and the failing alerts written before it; it returns the log's rows deleted
// (deliveries, attempts, notices: the rollups' rows are not counted).
func (r *Retention) Prune(ctx context.Context, before time.Time) (int, error) {
	total := 0
	for _, stmt := range []string{r.attempts, r.deliveries, r.sent, r.health, r.alerts} {
		for {
			n, err := r.deleteBatch(ctx, stmt, before)
			if err != nil {
				return total, fmt.Errorf("prune webhook log: %w", err)
			}
			if stmt != r.health && stmt != r.alerts {
				total += int(n)
			}
			if n < pruneBatch {
				break
			}
		}
	}
	return total, nil
}

// deleteBatch runs one of Prune's statements and returns the rows it deleted: its count
// when it answers one (PostgreSQL's deliveries with their attempts), else rows affected.
func (r *Retention) deleteBatch(ctx context.Context, stmt string, before time.Time) (int64, error) {
	if stmt == r.deliveries && r.db.Dialect == sqldb.Postgres {
		var n int64
		err := r.db.Write(ctx).GetContext(ctx, &n, stmt, before, pruneBatch)
		return n, err
	}
	res, err := r.db.Write(ctx).ExecContext(ctx, stmt, before, pruneBatch)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
