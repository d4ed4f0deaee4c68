package webhooks

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

const backfillColumns = `id, workspace_id, subscription_id, since, after_tx, after_offset, stop_tx, stop_offset, status,
	enqueued, created_at, updated_at, finished_at`

// Backfills stores endpoints' backfills (webhook_backfills, migration 00028).
type Backfills struct {
	db                        *sqldb.DB
	insert, lease, save, last string
}

// NewBackfills prepares the statements for db's dialect.
func NewBackfills(db *sqldb.DB) *Backfills {
	return &Backfills{
		db:     db,
		insert: db.Rebind(`INSERT INTO webhook_backfills (` + backfillColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		// The lease test is repeated on the row updated: under PostgreSQL's read committed,
		// two instances may pick the same row and only the first update keeps it.
		lease: db.Rebind(`UPDATE webhook_backfills SET lease_until = ?, lease_token = ?
			WHERE id = (SELECT id FROM webhook_backfills WHERE status = 'running' AND (lease_until IS NULL OR lease_until <= ?)
				ORDER BY created_at, id LIMIT 1)
			AND status = 'running' AND (lease_until IS NULL OR lease_until <= ?)
			RETURNING ` + backfillColumns),
		save: db.Rebind(`UPDATE webhook_backfills SET after_tx = ?, after_offset = ?, stop_tx = ?, stop_offset = ?, status = ?,
			enqueued = ?, updated_at = ?, finished_at = ?, lease_until = NULL, lease_token = ''
			WHERE workspace_id = ? AND id = ? AND lease_token = ?`),
		last: db.Rebind(`SELECT ` + backfillColumns + ` FROM webhook_backfills WHERE workspace_id = ? AND subscription_id = ?
			ORDER BY created_at DESC, id DESC LIMIT 1`),
	}
}

type backfillRow struct {
	ID             string     `db:"id"`
	WorkspaceID    string     `db:"workspace_id"`
	SubscriptionID string     `db:"subscription_id"`
	Since          time.Time  `db:"since"`
	AfterTx        int64      `db:"after_tx"`
	AfterOffset    int64      `db:"after_offset"`
	StopTx         *int64     `db:"stop_tx"`
	StopOffset     *int64     `db:"stop_offset"`
	Status         string     `db:"status"`
	Enqueued       int        `db:"enqueued"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
	FinishedAt     *time.Time `db:"finished_at"`
}

func (r backfillRow) backfill() *webhooks.Backfill {
	b := &webhooks.Backfill{ID: r.ID, WorkspaceID: r.WorkspaceID, SubscriptionID: r.SubscriptionID, Since: r.Since.UTC(),
		After: webhooks.Position{Tx: uint64(r.AfterTx), Offset: r.AfterOffset}, Status: webhooks.BackfillStatus(r.Status),
		Enqueued: r.Enqueued, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), FinishedAt: platform.UTCPtr(r.FinishedAt)}
	if r.StopTx != nil && r.StopOffset != nil {
		b.Stop = &webhooks.Position{Tx: uint64(*r.StopTx), Offset: *r.StopOffset}
	}
	return b
}

func stopArgs(b *webhooks.Backfill) (tx, off *int64) {
	if b.Stop == nil {
		return nil, nil
	}
	t, o := int64(b.Stop.Tx), b.Stop.Offset
	return &t, &o
}

// Add inserts b.
func (r *Backfills) Add(ctx context.Context, b *webhooks.Backfill) error {
	tx, off := stopArgs(b)
	_, err := r.db.Write(ctx).ExecContext(ctx, r.insert, b.ID, b.WorkspaceID, b.SubscriptionID, b.Since, int64(b.After.Tx),
		b.After.Offset, tx, off, string(b.Status), b.Enqueued, b.CreatedAt, b.UpdatedAt, b.FinishedAt)
	if err != nil {
		return fmt.Errorf("insert backfill: %w", err)
	}
	return nil
}

// Lease takes the oldest running backfill not leased at now.
func (r *Backfills) Lease(ctx context.Context, now, until time.Time, token string) (*webhooks.Backfill, error) {
	var rows []backfillRow
	if err := r.db.Write(ctx).SelectContext(ctx, &rows, r.lease, until, token, now, now); err != nil {
		return nil, fmt.Errorf("lease backfill: %w", err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return rows[0].backfill(), nil
}

// Save writes b's progress while token holds its lease, and ends the lease.
func (r *Backfills) Save(ctx context.Context, b *webhooks.Backfill, token string) (bool, error) {
	tx, off := stopArgs(b)
	return r.db.Changes(ctx, "save backfill", r.save, int64(b.After.Tx), b.After.Offset, tx, off, string(b.Status), b.Enqueued,
		b.UpdatedAt, b.FinishedAt, b.WorkspaceID, b.ID, token)
}

// Latest returns the endpoint's newest backfill, nil when none.
func (r *Backfills) Latest(ctx context.Context, workspaceID, subscriptionID string) (*webhooks.Backfill, error) {
	var row backfillRow
	err := r.db.Read(ctx).GetContext(ctx, &row, r.last, workspaceID, subscriptionID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("latest backfill: %w", err)
	}
	return row.backfill(), nil
}
