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
	"github.com/creatorapi/creatorapi/domain/orders"
)

const orderColumns = `id, workspace_id, student_id, status, currency, amount, amount_refunded, receipt_number, paid_at, refunded_at, created_at, updated_at`

// Orders stores order aggregates: the order row, its items, entitlements and history.
type Orders struct {
	db                                                 *sqldb.DB
	insert, insertItem, insertEntitlement, insertEntry string
	get, update, revokeEntitlement, nextReceipt        string
	withEnrollment, liveElsewhere                      string
}

// NewOrders prepares the statements for db's dialect.
func NewOrders(db *sqldb.DB) *Orders {
	return &Orders{
		db:     db,
		insert: db.Rebind(`INSERT INTO orders (` + orderColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		insertItem: db.Rebind(`INSERT INTO order_items (order_id, workspace_id, position, course_id, title, amount)
			VALUES (?, ?, ?, ?, ?, ?)`),
		insertEntitlement: db.Rebind(`INSERT INTO order_entitlements (order_id, workspace_id, course_id, enrollment_id, granted_at, revoked_at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, course_id) DO NOTHING`),
		// History is append-only: saving an aggregate inserts only the entries not stored yet.
		insertEntry: db.Rebind(`INSERT INTO order_history (order_id, workspace_id, seq, type, amount, at)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (order_id, seq) DO NOTHING`),
		// Refunds load the order inside their transaction: the row lock makes concurrent
		// refunds of one order run one after the other (SQLite serializes writers anyway).
		get: db.Rebind(`SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ? AND id = ?` + db.ForUpdate()),
		update: db.Rebind(`UPDATE orders SET status = ?, amount_refunded = ?, refunded_at = ?, updated_at = ?
			WHERE workspace_id = ? AND id = ?`),
		revokeEntitlement: db.Rebind(`UPDATE order_entitlements SET revoked_at = ?
			WHERE workspace_id = ? AND order_id = ? AND course_id = ? AND revoked_at IS NULL`),
		liveElsewhere: db.Rebind(`SELECT COUNT(*) FROM order_entitlements
			WHERE workspace_id = ? AND enrollment_id = ? AND order_id <> ? AND revoked_at IS NULL`),
		withEnrollment: db.Rebind(`SELECT order_id FROM order_entitlements WHERE workspace_id = ? AND enrollment_id = ? ORDER BY order_id`),
		// One statement on both engines: the upsert locks the counter row until commit,
		// so concurrent orders of a workspace get distinct, consecutive numbers.
		nextReceipt: db.Rebind(`INSERT INTO receipt_counters (workspace_id, last_number) VALUES (?, 1)
			ON CONFLICT (workspace_id) DO UPDATE SET last_number = receipt_counters.last_number + 1
			RETURNING last_number`),
	}
}

type orderRow struct {
	ID             string     `db:"id"`
	WorkspaceID    string     `db:"workspace_id"`
	StudentID      string     `db:"student_id"`
	Status         string     `db:"status"`
	Currency       string     `db:"currency"`
	Amount         int64      `db:"amount"`
	AmountRefunded int64      `db:"amount_refunded"`
	ReceiptNumber  string     `db:"receipt_number"`
	PaidAt         time.Time  `db:"paid_at"`
	RefundedAt     *time.Time `db:"refunded_at"`
	CreatedAt      time.Time  `db:"created_at"`
	UpdatedAt      time.Time  `db:"updated_at"`
}

type orderItemRow struct {
	OrderID  string `db:"order_id"`
	CourseID string `db:"course_id"`
	Title    string `db:"title"`
	Amount   int64  `db:"amount"`
}

type orderEntitlementRow struct {
	OrderID      string     `db:"order_id"`
	CourseID     string     `db:"course_id"`
	EnrollmentID string     `db:"enrollment_id"`
	GrantedAt    time.Time  `db:"granted_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
}

type orderEntryRow struct {
	OrderID string    `db:"order_id"`
	Seq     int       `db:"seq"`
	Type    string    `db:"type"`
	Amount  int64     `db:"amount"`
	At      time.Time `db:"at"`
}

// orderParts are the child rows of a set of orders, by order id, in display order.
type orderParts struct {
	items        map[string][]orderItemRow
	entitlements map[string][]orderEntitlementRow
	history      map[string][]orderEntryRow
}

// loadOrderParts reads the items, entitlements and history of the orders in three
// queries whatever their number (no query per order).
func loadOrderParts(ctx context.Context, db *sqldb.DB, q sqldb.Querier, workspaceID string, ids []string) (orderParts, error) {
	parts := orderParts{items: map[string][]orderItemRow{}, entitlements: map[string][]orderEntitlementRow{}, history: map[string][]orderEntryRow{}}
	if len(ids) == 0 {
		return parts, nil
	}
	selectIn := func(dest any, statement string) error {
		// IN (...) has as many placeholders as ids: expanded per call, then rebound.
		s, args, err := sqlx.In(statement, workspaceID, ids)
		if err != nil {
			return err
		}
		return q.SelectContext(ctx, dest, db.Rebind(s), args...)
	}
	var items []orderItemRow
	if err := selectIn(&items, `SELECT order_id, course_id, title, amount FROM order_items
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, position`); err != nil {
		return parts, fmt.Errorf("order items: %w", err)
	}
	var ents []orderEntitlementRow
	if err := selectIn(&ents, `SELECT e.order_id, e.course_id, e.enrollment_id, e.granted_at, e.revoked_at
		FROM order_entitlements e JOIN order_items i ON i.order_id = e.order_id AND i.course_id = e.course_id
		WHERE e.workspace_id = ? AND e.order_id IN (?) ORDER BY e.order_id, i.position`); err != nil {
		return parts, fmt.Errorf("order entitlements: %w", err)
	}
	var hist []orderEntryRow
	if err := selectIn(&hist, `SELECT order_id, seq, type, amount, at FROM order_history
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, seq`); err != nil {
		return parts, fmt.Errorf("order history: %w", err)
	}
	for _, it := range items {
		parts.items[it.OrderID] = append(parts.items[it.OrderID], it)
	}
	for _, e := range ents {
		parts.entitlements[e.OrderID] = append(parts.entitlements[e.OrderID], e)
	}
	for _, h := range hist {
		parts.history[h.OrderID] = append(parts.history[h.OrderID], h)
	}
	return parts, nil
}

// Add inserts a new order with its items, entitlements and payment entry.
func (r *Orders) Add(ctx context.Context, o *orders.Order) error {
	q := r.db.Write(ctx)
	_, err := q.ExecContext(ctx, r.insert, o.ID, o.WorkspaceID, o.StudentID, string(o.Status), o.Currency, o.Amount,
		o.AmountRefunded, o.ReceiptNumber, o.PaidAt, o.RefundedAt, o.CreatedAt, o.UpdatedAt)
	if err != nil {
		return fmt.Errorf("insert order: %w", err)
	}
	for i, it := range o.Items {
		if _, err := q.ExecContext(ctx, r.insertItem, o.ID, o.WorkspaceID, i+1, it.CourseID, it.Title, it.Amount); err != nil {
			return fmt.Errorf("insert order item: %w", err)
		}
	}
	return r.saveChildren(ctx, q, o)
}

func (r *Orders) saveChildren(ctx context.Context, q sqldb.Querier, o *orders.Order) error {
	for _, e := range o.Entitlements {
		if _, err := q.ExecContext(ctx, r.insertEntitlement, o.ID, o.WorkspaceID, e.CourseID, e.EnrollmentID, e.GrantedAt, e.RevokedAt); err != nil {
			return fmt.Errorf("insert entitlement: %w", err)
		}
		if e.RevokedAt != nil {
			if _, err := q.ExecContext(ctx, r.revokeEntitlement, *e.RevokedAt, o.WorkspaceID, o.ID, e.CourseID); err != nil {
				return fmt.Errorf("revoke entitlement: %w", err)
			}
		}
	}
	for _, h := range o.History {
		if _, err := q.ExecContext(ctx, r.insertEntry, o.ID, o.WorkspaceID, h.Seq, string(h.Type), h.Amount, h.At); err != nil {
			return fmt.Errorf("insert order history: %w", err)
		}
	}
	return nil
}

// Get loads the aggregate, locked for the caller's transaction.
func (r *Orders) Get(ctx context.Context, workspaceID, id string) (*orders.Order, error) {
	q := r.db.Write(ctx)
	var row orderRow
	err := q.GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("order %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get order: %w", err)
	}
	parts, err := loadOrderParts(ctx, r.db, q, workspaceID, []string{id})
	if err != nil {
		return nil, err
	}
	o := &orders.Order{
		ID: row.ID, WorkspaceID: row.WorkspaceID, StudentID: row.StudentID, Status: orders.Status(row.Status),
		Currency: row.Currency, Amount: row.Amount, AmountRefunded: row.AmountRefunded, ReceiptNumber: row.ReceiptNumber,
		PaidAt: row.PaidAt.UTC(), RefundedAt: utcPtr(row.RefundedAt), CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
	for _, it := range parts.items[id] {
		o.Items = append(o.Items, orders.Item{CourseID: it.CourseID, Title: it.Title, Amount: it.Amount})
	}
	for _, e := range parts.entitlements[id] {
		o.Entitlements = append(o.Entitlements, orders.Entitlement{CourseID: e.CourseID, EnrollmentID: e.EnrollmentID,
			GrantedAt: e.GrantedAt.UTC(), RevokedAt: utcPtr(e.RevokedAt)})
	}
	for _, h := range parts.history[id] {
		o.History = append(o.History, orders.Entry{Seq: h.Seq, Type: orders.EntryType(h.Type), Amount: h.Amount, At: h.At.UTC()})
	}
	return o, nil
}

// Update saves the order row, revocations of entitlements and new history entries.
func (r *Orders) Update(ctx context.Context, o *orders.Order) error {
	q := r.db.Write(ctx)
	if _, err := q.ExecContext(ctx, r.update, string(o.Status), o.AmountRefunded, o.RefundedAt, o.UpdatedAt, o.WorkspaceID, o.ID); err != nil {
		return fmt.Errorf("update order: %w", err)
	}
	return r.saveChildren(ctx, q, o)
}

// NextReceipt draws the next receipt sequence number of the workspace.
func (r *Orders) NextReceipt(ctx context.Context, workspaceID string) (int64, error) {
	var n int64
	if err := r.db.Write(ctx).GetContext(ctx, &n, r.nextReceipt, workspaceID); err != nil {
		return 0, fmt.Errorf("next receipt number: %w", err)
	}
	return n, nil
}

// WithEnrollment lists the ids of the orders holding an entitlement to enrollmentID.
func (r *Orders) WithEnrollment(ctx context.Context, workspaceID, enrollmentID string) ([]string, error) {
	var ids []string
	if err := r.db.Write(ctx).SelectContext(ctx, &ids, r.withEnrollment, workspaceID, enrollmentID); err != nil {
		return nil, fmt.Errorf("orders with enrollment: %w", err)
	}
	return ids, nil
}

// LiveGrantsElsewhere counts the unrevoked entitlements to enrollmentID of other orders.
func (r *Orders) LiveGrantsElsewhere(ctx context.Context, workspaceID, enrollmentID, orderID string) (int, error) {
	var n int
	if err := r.db.Write(ctx).GetContext(ctx, &n, r.liveElsewhere, workspaceID, enrollmentID, orderID); err != nil {
		return 0, fmt.Errorf("live grants of %s: %w", enrollmentID, err)
	}
	return n, nil
}
