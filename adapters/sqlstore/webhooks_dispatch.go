package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// claimCandidates is how many due rows a claim looks at per delivery it may take, so
// that endpoints at their concurrency limit do not hide the others.
const claimCandidates = 4

// WebhookDispatch leases due deliveries to one dispatcher at a time. The claim is the
// one statement that spans workspaces (the dispatcher serves them all); it matches each
// delivery to its endpoint on workspace_id, and every later statement is scoped by it.
// The claim walks the due index in order (an EXISTS, not a join, keeps it from sorting
// every due row) and stops after LIMIT rows.
type WebhookDispatch struct {
	db                                         *sqldb.DB
	subs                                       *Webhooks
	anyDue, due, lease, leased, complete, free string
}

// NewWebhookDispatch prepares the statements for db's dialect.
func NewWebhookDispatch(db *sqldb.DB, subs *Webhooks) *WebhookDispatch {
	// PostgreSQL: lock the candidate rows, skipping the ones another instance is claiming.
	// SQLite: the claim transaction is the only writer (BEGIN IMMEDIATE), nothing to skip.
	skipLocked := ""
	if db.Dialect == sqldb.Postgres {
		skipLocked = " FOR UPDATE OF d SKIP LOCKED"
	}
	return &WebhookDispatch{
		db: db, subs: subs,
		// A read that finds nothing due spares a write transaction (SQLite's single writer).
		// ORDER BY keeps the planner on the due index (a LIMIT 1 alone invites a table scan).
		anyDue: db.Rebind(`SELECT COUNT(*) FROM (SELECT 1 FROM webhook_deliveries
			WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
			ORDER BY next_attempt_at LIMIT 1) AS due`),
		due: db.Rebind(`SELECT d.id, d.workspace_id, d.subscription_id, d.event_id, d.event_type, d.payload, d.status, d.attempts,
			d.cycle_attempts, d.cycle_failed_at, d.next_attempt_at, d.last_attempt_at, d.last_status, d.last_error, d.created_at, d.updated_at
			FROM webhook_deliveries d
			WHERE d.status = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)
			AND EXISTS (SELECT 1 FROM webhook_subscriptions s
				WHERE s.workspace_id = d.workspace_id AND s.id = d.subscription_id AND s.status = 'enabled')
			ORDER BY d.next_attempt_at, d.id LIMIT ?` + skipLocked),
		lease: `UPDATE webhook_deliveries SET lease_until = ?, lease_token = ? WHERE id IN (?)`,
		leased: db.Rebind(`SELECT ` + deliveryColumns + ` FROM webhook_deliveries
			WHERE workspace_id = ? AND id = ? AND lease_token = ?` + db.ForUpdate()),
		complete: db.Rebind(`UPDATE webhook_deliveries SET status = ?, attempts = ?, cycle_attempts = ?, cycle_failed_at = ?,
			next_attempt_at = ?, last_attempt_at = ?, last_status = ?, last_error = ?, updated_at = ?, lease_until = NULL, lease_token = ''
			WHERE workspace_id = ? AND id = ? AND lease_token = ?`),
		free: db.Rebind(`UPDATE webhook_deliveries SET lease_until = NULL, lease_token = '' WHERE workspace_id = ? AND id = ? AND lease_token = ?`),
	}
}

// ClaimDue leases up to limit deliveries due at now until until, taking at most
// room(subscriptionID) per endpoint. The lease survives a crash only until it expires:
// then another instance sends the delivery again (at least once).
func (r *WebhookDispatch) ClaimDue(ctx context.Context, now, until time.Time, token string, limit int, room func(string) int) ([]webhooks.Lease, error) {
	if limit <= 0 {
		return nil, nil
	}
	var due int
	if err := r.db.Read(ctx).GetContext(ctx, &due, r.anyDue, now, now); err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	if due == 0 {
		return nil, nil
	}
	var out []webhooks.Lease
	err := r.db.WithinTx(ctx, func(ctx context.Context) error {
		var rows []deliveryRow
		if err := r.db.Write(ctx).SelectContext(ctx, &rows, r.due, now, now, limit*claimCandidates); err != nil {
			return fmt.Errorf("select due deliveries: %w", err)
		}
		taken := map[string]int{}
		var ids []string
		endpoints := map[string]*webhooks.Subscription{}
		for _, row := range rows {
			if len(ids) == limit {
				break
			}
			if taken[row.SubscriptionID] >= room(row.SubscriptionID) {
				continue
			}
			sub, ok := endpoints[row.SubscriptionID]
			if !ok {
				var err error
				if sub, err = r.subs.Get(ctx, row.WorkspaceID, row.SubscriptionID); err != nil {
					return err
				}
				endpoints[row.SubscriptionID] = sub
			}
			taken[row.SubscriptionID]++
			ids = append(ids, row.ID)
			out = append(out, webhooks.Lease{Delivery: row.delivery(), Endpoint: sub, Token: token, Until: until})
		}
		if len(ids) == 0 {
			return nil
		}
		stmt, args, err := sqlx.In(r.lease, until, token, ids)
		if err != nil {
			return fmt.Errorf("lease deliveries: %w", err)
		}
		if _, err := r.db.Write(ctx).ExecContext(ctx, r.db.Rebind(stmt), args...); err != nil {
			return fmt.Errorf("lease deliveries: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	return out, nil
}

// GetLeased returns the delivery locked for update while token still holds its lease,
// else NotFound.
func (r *WebhookDispatch) GetLeased(ctx context.Context, workspaceID, id, token string) (*webhooks.Delivery, error) {
	var row deliveryRow
	err := r.db.Write(ctx).GetContext(ctx, &row, r.leased, workspaceID, id, token)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("delivery %s is no longer leased by this dispatcher", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get leased delivery: %w", err)
	}
	return row.delivery(), nil
}

// Complete saves d and ends token's lease.
func (r *WebhookDispatch) Complete(ctx context.Context, d *webhooks.Delivery, token string) error {
	_, err := r.db.Write(ctx).ExecContext(ctx, r.complete, string(d.Status), d.Attempts, d.CycleAttempts, d.CycleFailedAt,
		d.NextAttemptAt, d.LastAttemptAt, d.LastStatus, d.LastError, d.UpdatedAt, d.WorkspaceID, d.ID, token)
	if err != nil {
		return fmt.Errorf("complete delivery: %w", err)
	}
	return nil
}

// Release gives a lease back unused, so that the delivery is claimable at once.
func (r *WebhookDispatch) Release(ctx context.Context, workspaceID, id, token string) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.free, workspaceID, id, token); err != nil {
		return fmt.Errorf("release delivery: %w", err)
	}
	return nil
}
