package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Notices is the outbox of e-mail notices.
type Notices struct {
	db                               *sqldb.DB
	insert, due, lease, sent, failed string
}

// NewNotices prepares the statements for db's dialect.
func NewNotices(db *sqldb.DB) *Notices {
	return &Notices{
		db: db,
		insert: db.Rebind(`INSERT INTO webhook_notices (id, workspace_id, subscription_id, recipient, subject, body, created_at, next_attempt_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		// Notices are rare; the notifier serves every workspace, like the dispatcher.
		due: db.Rebind(`SELECT id, workspace_id, subscription_id, recipient, subject, body, created_at FROM webhook_notices
			WHERE sent_at IS NULL AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY next_attempt_at, id LIMIT ?`),
		// A conditional update is the claim on both engines: only one instance changes the row.
		lease: db.Rebind(`UPDATE webhook_notices SET lease_until = ?, attempts = attempts + 1
			WHERE workspace_id = ? AND id = ? AND sent_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)`),
		sent:   db.Rebind(`UPDATE webhook_notices SET sent_at = ?, lease_until = NULL WHERE workspace_id = ? AND id = ?`),
		failed: db.Rebind(`UPDATE webhook_notices SET last_error = ?, next_attempt_at = ?, lease_until = NULL WHERE workspace_id = ? AND id = ?`),
	}
}

// Add stores n in the transaction of ctx.
func (r *Notices) Add(ctx context.Context, n webhooks.Notice) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.insert, n.ID, n.WorkspaceID, n.SubscriptionID, n.To, n.Subject, n.Body, n.CreatedAt, n.CreatedAt)
	if err != nil {
		return fmt.Errorf("insert notice: %w", err)
	}
	return nil
}

type noticeRow struct {
	ID             string    `db:"id"`
	WorkspaceID    string    `db:"workspace_id"`
	SubscriptionID string    `db:"subscription_id"`
	Recipient      string    `db:"recipient"`
	Subject        string    `db:"subject"`
	Body           string    `db:"body"`
	CreatedAt      time.Time `db:"created_at"`
}

// ClaimDue leases up to limit unsent notices until leaseUntil.
func (r *Notices) ClaimDue(ctx context.Context, now, leaseUntil time.Time, limit int) ([]webhooks.Notice, error) {
	var rows []noticeRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.due, now, now, limit); err != nil {
		return nil, fmt.Errorf("select due notices: %w", err)
	}
	var out []webhooks.Notice
	for _, row := range rows {
		res, err := r.db.Write(ctx).ExecContext(ctx, r.lease, leaseUntil, row.WorkspaceID, row.ID, now)
		if err != nil {
			return nil, fmt.Errorf("lease notice: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			continue // another instance took it
		}
		out = append(out, webhooks.Notice{
			ID: row.ID, WorkspaceID: row.WorkspaceID, SubscriptionID: row.SubscriptionID, To: row.Recipient,
			Subject: row.Subject, Body: row.Body, CreatedAt: row.CreatedAt.UTC(),
		})
	}
	return out, nil
}

// MarkSent records the sending.
func (r *Notices) MarkSent(ctx context.Context, workspaceID, id string, at time.Time) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.sent, at, workspaceID, id); err != nil {
		return fmt.Errorf("mark notice sent: %w", err)
	}
	return nil
}

// MarkFailed records the error and when to try again.
func (r *Notices) MarkFailed(ctx context.Context, workspaceID, id, errText string, retryAt time.Time) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.failed, sqldb.Text(errText), retryAt, workspaceID, id); err != nil {
		return fmt.Errorf("mark notice failed: %w", err)
	}
	return nil
}
