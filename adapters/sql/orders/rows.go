// Package orders is the orders module's persistence: it alone names the order tables
// (orders, order_items, order_entitlements, order_history, receipt_counters; see
// docs/architecture.md, "Table ownership"). Repository stores the aggregate; Reads
// serves the module's read model and its published query. Both load aggregates the
// same way (load), so a read shows exactly what a command would see.
package orders

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// The orders table's columns, shared by the repository and the reads.
const orderColumns = `id, workspace_id, student_id, status, currency, amount, amount_refunded, receipt_number, paid_at, refunded_at, created_at, updated_at`

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

type itemRow struct {
	OrderID  string `db:"order_id"`
	CourseID string `db:"course_id"`
	Title    string `db:"title"`
	Amount   int64  `db:"amount"`
}

type entitlementRow struct {
	OrderID      string     `db:"order_id"`
	CourseID     string     `db:"course_id"`
	EnrollmentID string     `db:"enrollment_id"`
	GrantedAt    time.Time  `db:"granted_at"`
	RevokedAt    *time.Time `db:"revoked_at"`
}

type entryRow struct {
	OrderID string    `db:"order_id"`
	Seq     int       `db:"seq"`
	Type    string    `db:"type"`
	Amount  int64     `db:"amount"`
	At      time.Time `db:"at"`
}

// load turns order rows into aggregates with their items, entitlements and history,
// read in three queries whatever the number of orders (no query per order).
func load(ctx context.Context, db *sqldb.DB, q sqldb.Querier, workspaceID string, rows []orderRow) ([]*orders.Order, error) {
	out := make([]*orders.Order, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	byID := make(map[string]*orders.Order, len(rows))
	ids := make([]string, len(rows))
	for i, row := range rows {
		out[i] = &orders.Order{
			ID: row.ID, WorkspaceID: row.WorkspaceID, StudentID: row.StudentID, Status: orders.Status(row.Status),
			Currency: row.Currency, Amount: row.Amount, AmountRefunded: row.AmountRefunded, ReceiptNumber: row.ReceiptNumber,
			PaidAt: row.PaidAt.UTC(), RefundedAt: platform.UTCPtr(row.RefundedAt), CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
		}
		byID[row.ID], ids[i] = out[i], row.ID
	}
	selectIn := func(dest any, statement string) error {
		// IN (...) has as many placeholders as ids: expanded per call, then rebound.
		s, args, err := sqlx.In(statement, workspaceID, ids)
		if err != nil {
			return err
		}
		return q.SelectContext(ctx, dest, db.Rebind(s), args...)
	}
	var items []itemRow
	if err := selectIn(&items, `SELECT order_id, course_id, title, amount FROM order_items
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, position`); err != nil {
		return nil, fmt.Errorf("order items: %w", err)
	}
	var ents []entitlementRow
	if err := selectIn(&ents, `SELECT e.order_id, e.course_id, e.enrollment_id, e.granted_at, e.revoked_at
		FROM order_entitlements e JOIN order_items i ON i.order_id = e.order_id AND i.course_id = e.course_id
		WHERE e.workspace_id = ? AND e.order_id IN (?) ORDER BY e.order_id, i.position`); err != nil {
		return nil, fmt.Errorf("order entitlements: %w", err)
	}
	var hist []entryRow
	if err := selectIn(&hist, `SELECT order_id, seq, type, amount, at FROM order_history
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, seq`); err != nil {
		return nil, fmt.Errorf("order history: %w", err)
	}
	for _, it := range items {
		o := byID[it.OrderID]
		o.Items = append(o.Items, orders.Item{CourseID: it.CourseID, Title: it.Title, Amount: it.Amount})
	}
	for _, e := range ents {
		o := byID[e.OrderID]
		o.Entitlements = append(o.Entitlements, orders.Entitlement{CourseID: e.CourseID, EnrollmentID: e.EnrollmentID,
			GrantedAt: e.GrantedAt.UTC(), RevokedAt: platform.UTCPtr(e.RevokedAt)})
	}
	for _, h := range hist {
		o := byID[h.OrderID]
		o.History = append(o.History, orders.Entry{Seq: h.Seq, Type: orders.EntryType(h.Type), Amount: h.Amount, At: h.At.UTC()})
	}
	return out, nil
}
