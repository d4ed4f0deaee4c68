package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// FailingAlerts stores the failing streaks already announced: one row per endpoint and
// streak start, so that a second announcement of a streak conflicts and writes nothing.
type FailingAlerts struct {
	db   *sqldb.DB
	mark string
}

// NewFailingAlerts prepares the statement.
func NewFailingAlerts(db *sqldb.DB) *FailingAlerts {
	return &FailingAlerts{db: db, mark: db.Rebind(`INSERT INTO webhook_failing_alerts (subscription_id, failing_since, workspace_id, created_at)
		VALUES (?, ?, ?, ?) ON CONFLICT (subscription_id, failing_since) DO NOTHING`)}
}

// Mark records the streak; false when it was already recorded.
func (r *FailingAlerts) Mark(ctx context.Context, workspaceID, subscriptionID string, since, at time.Time) (bool, error) {
	return r.db.Changes(ctx, "mark failing streak", r.mark, subscriptionID, since, workspaceID, at)
}
