package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// healthUpsert adds rollup rows to the stored ones (docs/webhook-receivers.md, "Health"): counts
// add up, the later error wins. Rows come sorted (webhooks.HealthRollup), so concurrent
// recorders lock shared rows in the same order.
const healthUpsert = ` ON CONFLICT (subscription_id, hour, bucket) DO UPDATE SET
	attempts = webhook_health_hourly.attempts + excluded.attempts,
	succeeded = webhook_health_hourly.succeeded + excluded.succeeded,
	last_error = CASE WHEN excluded.last_error_at IS NOT NULL AND (webhook_health_hourly.last_error_at IS NULL
		OR excluded.last_error_at >= webhook_health_hourly.last_error_at) THEN excluded.last_error ELSE webhook_health_hourly.last_error END,
	last_error_at = CASE WHEN excluded.last_error_at IS NOT NULL AND (webhook_health_hourly.last_error_at IS NULL
		OR excluded.last_error_at >= webhook_health_hourly.last_error_at) THEN excluded.last_error_at ELSE webhook_health_hourly.last_error_at END`

const healthColumns = `subscription_id, hour, bucket, workspace_id, attempts, succeeded, last_error, last_error_at`

var healthTypes = []string{"TEXT", "TIMESTAMPTZ", "INTEGER", "TEXT", "INTEGER", "INTEGER", "TEXT", "TIMESTAMPTZ"}

// addHealth folds logged attempts into the health rollup with one statement, in the
// transaction of ctx (the one that logs them).
func addHealth(ctx context.Context, db *sqldb.DB, as []webhooks.Attempt) error {
	rows := webhooks.HealthRollup(as)
	if len(rows) == 0 {
		return nil
	}
	stmt := db.Rebind(`INSERT INTO webhook_health_hourly (` + healthColumns + `) ` + db.Values(len(rows), healthTypes...) + healthUpsert)
	args := make([]any, 0, len(rows)*len(healthTypes))
	for _, h := range rows {
		args = append(args, h.SubscriptionID, h.Hour, h.Bucket, h.WorkspaceID, h.Attempts, h.Succeeded, h.LastError, h.LastErrorAt)
	}
	if _, err := db.Write(ctx).ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("add endpoint health: %w", err)
	}
	return nil
}

// healthOfSaved is FinishSucceeded's part of the rollup on PostgreSQL: the saved
// deliveries' attempts (all successes), counted per endpoint, hour and bucket, with the
// hour and bucket each line carries (columns hour and bucket of saved).
const healthOfSaved = `INSERT INTO webhook_health_hourly (` + healthColumns + `)
	SELECT subscription_id, hour, bucket, MIN(workspace_id), COUNT(*), COUNT(*), '', CAST(NULL AS TIMESTAMPTZ)
	FROM saved GROUP BY subscription_id, hour, bucket ORDER BY subscription_id, hour, bucket` + healthUpsert

// Health reads endpoints' health rollup.
type Health struct {
	db   *sqldb.DB
	rows string
}

// NewHealth prepares the reader.
func NewHealth(db *sqldb.DB) *Health {
	return &Health{db: db, rows: db.Rebind(`SELECT ` + healthColumns + ` FROM webhook_health_hourly
		WHERE subscription_id = ? AND hour >= ? AND workspace_id = ? ORDER BY hour, bucket`)}
}

type healthRow struct {
	SubscriptionID string     `db:"subscription_id"`
	Hour           time.Time  `db:"hour"`
	Bucket         int        `db:"bucket"`
	WorkspaceID    string     `db:"workspace_id"`
	Attempts       int        `db:"attempts"`
	Succeeded      int        `db:"succeeded"`
	LastError      string     `db:"last_error"`
	LastErrorAt    *time.Time `db:"last_error_at"`
}

// Rows returns the endpoint's rollup rows from the hour since on: a range of the primary key.
func (r *Health) Rows(ctx context.Context, workspaceID, subscriptionID string, since time.Time) ([]webhooks.HealthHour, error) {
	var rows []healthRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.rows, subscriptionID, since, workspaceID); err != nil {
		return nil, fmt.Errorf("endpoint health: %w", err)
	}
	out := make([]webhooks.HealthHour, len(rows))
	for i, h := range rows {
		out[i] = webhooks.HealthHour{WorkspaceID: h.WorkspaceID, SubscriptionID: h.SubscriptionID, Hour: h.Hour.UTC(),
			Bucket: h.Bucket, Attempts: h.Attempts, Succeeded: h.Succeeded, LastError: h.LastError, LastErrorAt: utcPtr(h.LastErrorAt)}
	}
	return out, nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
