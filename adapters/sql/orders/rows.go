// Package orders is the orders module's persistence: it alone names the order tables
// (orders, order_items, order_entitlements, order_history, receipt_counters; see
// docs/architecture.md, "Table ownership"). Repository stores the aggregate; Reads
// serves the module's read model and its published query. Both load aggregates the
// same way (load), so a read shows exactly what a command would see.
package orders

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// The orders table's columns, shared by the repository and the reads.
const orderColumns = `id, workspace_id, student_id, status, currency, amount, amount_refunded, receipt_number, paid_at, refunded_at, created_at, updated_at`

// The children's rows: a domain value with the order it belongs to.
type (
	itemRow struct {
		OrderID string
		orders.Item
	}
	entitlementRow struct {
		OrderID string
		orders.Entitlement
	}
	entryRow struct {
		OrderID string
		orders.Entry
	}
)

// load gives orders (rows scanned straight into the aggregate) their items,
// entitlements and history, read in three queries whatever the number of orders (no
// query per order).
func load(ctx context.Context, db *sqldb.DB, q sqldb.Querier, workspaceID string, rows []orders.Order) ([]*orders.Order, error) {
	out := make([]*orders.Order, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	byID := make(map[string]*orders.Order, len(rows))
	ids := make([]string, len(rows))
	for i := range rows {
		out[i] = &rows[i]
		byID[rows[i].ID], ids[i] = out[i], rows[i].ID
	}
	// IN (...) has as many placeholders as ids: expanded per call, then rebound.
	expand := func(statement string) (string, []any, error) {
		s, args, err := sqlx.In(statement, workspaceID, ids)
		return db.Rebind(s), args, err
	}
	items, err := selectIn[itemRow](ctx, q, expand, `SELECT order_id, course_id, title, amount FROM order_items
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, position`)
	if err != nil {
		return nil, err
	}
	ents, err := selectIn[entitlementRow](ctx, q, expand, `SELECT e.order_id, e.course_id, e.enrollment_id, e.granted_at, e.revoked_at
		FROM order_entitlements e JOIN order_items i ON i.order_id = e.order_id AND i.course_id = e.course_id
		WHERE e.workspace_id = ? AND e.order_id IN (?) ORDER BY e.order_id, i.position`)
	if err != nil {
		return nil, err
	}
	hist, err := selectIn[entryRow](ctx, q, expand, `SELECT order_id, seq, type, amount, at FROM order_history
		WHERE workspace_id = ? AND order_id IN (?) ORDER BY order_id, seq`)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		o := byID[it.OrderID]
		o.Items = append(o.Items, it.Item)
	}
	for _, e := range ents {
		o := byID[e.OrderID]
		o.Entitlements = append(o.Entitlements, e.Entitlement)
	}
	for _, h := range hist {
		o := byID[h.OrderID]
		o.History = append(o.History, h.Entry)
	}
	return out, nil
}

func selectIn[T any](ctx context.Context, q sqldb.Querier, expand func(string) (string, []any, error), statement string) ([]T, error) {
	s, args, err := expand(statement)
	if err != nil {
		return nil, fmt.Errorf("expand order ids: %w", err)
	}
	return sqldb.All[T](ctx, q, s, args...)
}
