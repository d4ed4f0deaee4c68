package orders

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// Repository stores order aggregates (orders.Repository): the order row, its items,
// entitlements and history.
type Repository struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, InsertItem, InsertEntitlement, InsertEntry, Get, Update, RevokeEntitlement, NextReceipt, WithEnrollment, LiveElsewhere string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{sqldb.Prepare(db, statements{
		Insert: `INSERT INTO orders (` + orderColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		InsertItem: `INSERT INTO order_items (order_id, workspace_id, position, course_id, title, amount)
			VALUES (?, ?, ?, ?, ?, ?)`,
		InsertEntitlement: `INSERT INTO order_entitlements (order_id, workspace_id, course_id, enrollment_id, granted_at, revoked_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, course_id) DO NOTHING`,
		// History is append-only: saving an aggregate inserts only the entries not stored yet.
		InsertEntry: `INSERT INTO order_history (order_id, workspace_id, seq, type, amount, at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, seq) DO NOTHING`,
		// Refunds load the order inside their transaction: the row lock makes concurrent
		// refunds of one order run one after the other (SQLite serializes writers anyway).
		Get: `SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ? AND id = ?` + db.ForUpdate(),
		Update: `UPDATE orders SET status = ?, amount_refunded = ?, refunded_at = ?, updated_at = ?
			WHERE workspace_id = ? AND id = ?`,
		RevokeEntitlement: `UPDATE order_entitlements SET revoked_at = ?
			WHERE workspace_id = ? AND order_id = ? AND course_id = ? AND revoked_at IS NULL`,
		LiveElsewhere: `SELECT COUNT(*) FROM order_entitlements
			WHERE workspace_id = ? AND enrollment_id = ? AND order_id <> ? AND revoked_at IS NULL`,
		WithEnrollment: `SELECT order_id FROM order_entitlements WHERE workspace_id = ? AND enrollment_id = ? ORDER BY order_id`,
		// One statement on both engines: the upsert locks the counter row until commit,
		// so concurrent orders of a workspace get distinct, consecutive numbers.
		NextReceipt: `INSERT INTO receipt_counters (workspace_id, last_number) VALUES (?, 1)
			ON CONFLICT (workspace_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
			RETURNING last_number`,
	})}
}

// Add inserts a new order with its items, entitlements and payment entry.
func (r *Repository) Add(ctx context.Context, o *orders.Order) error {
	q := r.DB.Write(ctx)
	_, err := q.ExecContext(ctx, r.Q.Insert, o.ID, o.WorkspaceID, o.StudentID, string(o.Status), o.Currency, o.Amount,
		o.AmountRefunded, o.ReceiptNumber, o.PaidAt, o.RefundedAt, o.CreatedAt, o.UpdatedAt)
	if err != nil {
		return fmt.Errorf("insert order: %w", err)
	}
	for i, it := range o.Items {
		if _, err := q.ExecContext(ctx, r.Q.InsertItem, o.ID, o.WorkspaceID, i+1, it.CourseID, it.Title, it.Amount); err != nil {
			return fmt.Errorf("insert order item: %w", err)
		}
	}
	return r.saveChildren(ctx, q, o)
}

func (r *Repository) saveChildren(ctx context.Context, q sqldb.Querier, o *orders.Order) error {
	for _, e := range o.Entitlements {
		if _, err := q.ExecContext(ctx, r.Q.InsertEntitlement, o.ID, o.WorkspaceID, e.CourseID, e.EnrollmentID, e.GrantedAt, e.RevokedAt); err != nil {
			return fmt.Errorf("insert entitlement: %w", err)
		}
		if e.RevokedAt != nil {
			if _, err := q.ExecContext(ctx, r.Q.RevokeEntitlement, *e.RevokedAt, o.WorkspaceID, o.ID, e.CourseID); err != nil {
				return fmt.Errorf("revoke entitlement: %w", err)
			}
		}
	}
	for _, h := range o.History {
		if _, err := q.ExecContext(ctx, r.Q.InsertEntry, o.ID, o.WorkspaceID, h.Seq, string(h.Type), h.Amount, h.At); err != nil {
			return fmt.Errorf("insert order history: %w", err)
		}
	}
	return nil
}

// Get loads the aggregate, locked for the caller's transaction.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*orders.Order, error) {
	return one(ctx, r.DB, r.DB.Write(ctx), r.Q.Get, workspaceID, id)
}

// one reads the order stmt selects by workspace and id, or NotFound.
func one(ctx context.Context, db *sqldb.DB, q sqldb.Querier, stmt, workspaceID, id string) (*orders.Order, error) {
	row := make([]orders.Order, 1)
	if err := sqldb.One(ctx, q, &row[0], kernel.NotFound("order %s not found", id), stmt, workspaceID, id); err != nil {
		return nil, err
	}
	list, err := load(ctx, db, q, workspaceID, row)
	if err != nil {
		return nil, err
	}
	return list[0], nil
}

// Update saves the order row, revocations of entitlements and new history entries.
func (r *Repository) Update(ctx context.Context, o *orders.Order) error {
	q := r.DB.Write(ctx)
	if _, err := q.ExecContext(ctx, r.Q.Update, string(o.Status), o.AmountRefunded, o.RefundedAt, o.UpdatedAt, o.WorkspaceID, o.ID); err != nil {
		return fmt.Errorf("update order: %w", err)
	}
	return r.saveChildren(ctx, q, o)
}

// NextReceipt draws the next receipt sequence number of the workspace.
func (r *Repository) NextReceipt(ctx context.Context, workspaceID string) (int64, error) {
	var n int64
	if err := r.DB.Write(ctx).GetContext(ctx, &n, r.Q.NextReceipt, workspaceID); err != nil {
		return 0, fmt.Errorf("next receipt number: %w", err)
	}
	return n, nil
}

// WithEnrollment lists the ids of the orders holding an entitlement to enrollmentID.
func (r *Repository) WithEnrollment(ctx context.Context, workspaceID, enrollmentID string) ([]string, error) {
	var ids []string
	if err := r.DB.Write(ctx).SelectContext(ctx, &ids, r.Q.WithEnrollment, workspaceID, enrollmentID); err != nil {
		return nil, fmt.Errorf("orders with enrollment: %w", err)
	}
	return ids, nil
}

// LiveGrantsElsewhere counts the unrevoked entitlements to enrollmentID of other orders.
func (r *Repository) LiveGrantsElsewhere(ctx context.Context, workspaceID, enrollmentID, orderID string) (int, error) {
	var n int
	if err := r.DB.Write(ctx).GetContext(ctx, &n, r.Q.LiveElsewhere, workspaceID, enrollmentID, orderID); err != nil {
		return 0, fmt.Errorf("live grants of %s: %w", enrollmentID, err)
	}
	return n, nil
}
