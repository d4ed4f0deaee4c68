package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// OrderReads answers order queries from the order tables.
type OrderReads struct {
	db  *sqldb.DB
	get string
}

// NewOrderReads prepares the statements for db's dialect.
func NewOrderReads(db *sqldb.DB) *OrderReads {
	return &OrderReads{
		db:  db,
		get: db.Rebind(`SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ? AND id = ?`),
	}
}

// List returns one keyset page of orders, newest first, with their items, entitlements
// and history loaded for the whole page at once.
func (r *OrderReads) List(ctx context.Context, workspaceID string, f query.Filters, page platform.PageRequest) (platform.Page[query.Order], error) {
	// The filters combine freely, so the statement is assembled per call (from fixed
	// fragments only; every value is a placeholder) and rebound then.
	var b strings.Builder
	b.WriteString(`SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ?`)
	args := []any{workspaceID}
	if f.Status != "" {
		b.WriteString(` AND status = ?`)
		args = append(args, f.Status)
	}
	if f.StudentID != "" {
		b.WriteString(` AND student_id = ?`)
		args = append(args, f.StudentID)
	}
	if f.CreatedSince != nil {
		b.WriteString(` AND created_at >= ?`)
		args = append(args, f.CreatedSince.UTC())
	}
	if f.CreatedBefore != nil {
		b.WriteString(` AND created_at < ?`)
		args = append(args, f.CreatedBefore.UTC())
	}
	if f.UpdatedSince != nil {
		b.WriteString(` AND updated_at >= ?`)
		args = append(args, f.UpdatedSince.UTC())
	}
	if page.After != nil {
		b.WriteString(` AND (created_at < ? OR (created_at = ? AND id < ?))`)
		args = append(args, page.After.CreatedAt, page.After.CreatedAt, page.After.ID)
	}
	b.WriteString(` ORDER BY created_at DESC, id DESC LIMIT ?`)
	args = append(args, page.Limit+1)

	q := r.db.Read(ctx)
	var rows []orderRow
	if err := q.SelectContext(ctx, &rows, r.db.Rebind(b.String()), args...); err != nil {
		return platform.Page[query.Order]{}, fmt.Errorf("list orders: %w", err)
	}
	out := platform.Page[query.Order]{}
	if len(rows) > page.Limit {
		rows = rows[:page.Limit]
		last := rows[len(rows)-1]
		out.HasMore = true
		out.Next = &platform.Position{CreatedAt: last.CreatedAt.UTC(), ID: last.ID}
	}
	ids := make([]string, len(rows))
	for i, row := range rows {
		ids[i] = row.ID
	}
	parts, err := loadOrderParts(ctx, r.db, q, workspaceID, ids)
	if err != nil {
		return platform.Page[query.Order]{}, err
	}
	out.Items = make([]query.Order, len(rows))
	for i, row := range rows {
		out.Items[i] = row.view(parts)
	}
	return out, nil
}

// Get returns the order or NotFound.
func (r *OrderReads) Get(ctx context.Context, workspaceID, id string) (query.Order, error) {
	q := r.db.Read(ctx)
	var row orderRow
	err := q.GetContext(ctx, &row, r.get, workspaceID, id)
	if errors.Is(err, sql.ErrNoRows) {
		return query.Order{}, kernel.NotFound("order %s not found", id)
	}
	if err != nil {
		return query.Order{}, fmt.Errorf("get order: %w", err)
	}
	parts, err := loadOrderParts(ctx, r.db, q, workspaceID, []string{id})
	if err != nil {
		return query.Order{}, err
	}
	return row.view(parts), nil
}

func (row orderRow) view(parts orderParts) query.Order {
	o := query.Order{
		ID: row.ID, StudentID: row.StudentID, Status: row.Status, Currency: row.Currency,
		Amount: row.Amount, AmountRefunded: row.AmountRefunded,
		Items: []query.Item{}, Entitlements: []query.Entitlement{}, History: []query.Entry{},
		Receipt: query.Receipt{Number: row.ReceiptNumber},
		PaidAt:  row.PaidAt.UTC(), RefundedAt: utcPtr(row.RefundedAt),
		CreatedAt: row.CreatedAt.UTC(), UpdatedAt: row.UpdatedAt.UTC(),
	}
	for _, it := range parts.items[row.ID] {
		o.Items = append(o.Items, query.Item{CourseID: it.CourseID, Title: it.Title, Amount: it.Amount})
	}
	for _, e := range parts.entitlements[row.ID] {
		o.Entitlements = append(o.Entitlements, query.Entitlement{CourseID: e.CourseID, EnrollmentID: e.EnrollmentID,
			GrantedAt: e.GrantedAt.UTC(), RevokedAt: utcPtr(e.RevokedAt)})
	}
	for _, h := range parts.history[row.ID] {
		o.History = append(o.History, query.Entry{Type: h.Type, Amount: h.Amount, At: h.At.UTC()})
	}
	return o
}
