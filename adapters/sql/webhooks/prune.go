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
		deliveries: db.Rebind(`DELETE FROM webhook_deliveries WHERE id IN
			(SELECT id FROM webhook_deliveries WHERE status <> 'pending' AND updated_at < ? LIMIT ?)`),
		sent: db.Rebind(`DELETE FROM webhook_notices WHERE id IN
			(SELECT id FROM webhook_notices WHERE sent_at IS NOT NULL AND sent_at < ? LIMIT ?)`),
		health: db.Rebind(`DELETE FROM webhook_health_hourly WHERE (subscription_id, hour, bucket) IN
			(SELECT subscription_id, hour, bucket FROM webhook_health_hourly WHERE hour < ? LIMIT ?)`),
		alerts: db.Rebind(`DELETE FROM webhook_failing_alerts WHERE (subscription_id, failing_since) IN
			(SELECT subscription_id, failing_since FROM webhook_failing_alerts WHERE created_at < ? LIMIT ?)`),
	}
}

// Prune deletes, batch by batch, attempts made before before, deliveries finished before
// it (with their remaining attempts), notices sent before it, the health rollup's hours
// before it and the failing alerts written before it; it returns the log's rows deleted
// (deliveries, attempts, notices: the rollups' rows are not counted).
func (r *Retention) Prune(ctx context.Context, before time.Time) (int, error) {
	total := 0
	for _, stmt := range []string{r.attempts, r.deliveries, r.sent, r.health, r.alerts} {
		for {
			res, err := r.db.Write(ctx).ExecContext(ctx, stmt, before, pruneBatch)
			if err != nil {
				return total, fmt.Errorf("prune webhook log: %w", err)
			}
			n, err := res.RowsAffected()
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
