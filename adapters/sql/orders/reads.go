package orders

import (
	"context"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// Reads answers the module's read model (query.ReadModel) and its published query
// (query.Published) from the order tables, in the caller's transaction when there is one.
type Reads struct {
	db  *sqldb.DB
	get string
}

// NewReads prepares the statements for db's dialect.
func NewReads(db *sqldb.DB) *Reads {
	return &Reads{db: db, get: db.Rebind(`SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ? AND id = ?`)}
}

// List returns one keyset page of orders, newest first, with their items, entitlements
// and history loaded for the whole page at once.
func (r *Reads) List(ctx context.Context, workspaceID string, f query.Filters, page platform.PageRequest) (platform.Page[*orders.Order], error) {
	// The filters combine freely, so the statement is assembled per call (from fixed
	// fragments only; every value is a placeholder) and rebound then.
	var b strings.Builder
	b.WriteString(`SELECT ` + orderColumns + ` FROM orders WHERE workspace_id = ?`)
	args := []any{workspaceID}
	where := func(fragment string, values ...any) {
		b.WriteString(fragment)
		args = append(args, values...)
	}
	if f.Status != "" {
		where(` AND status = ?`, f.Status)
	}
	if f.StudentID != "" {
		where(` AND student_id = ?`, f.StudentID)
	}
	if f.CreatedSince != nil {
		where(` AND created_at >= ?`, f.CreatedSince.UTC())
	}
	if f.CreatedBefore != nil {
		where(` AND created_at < ?`, f.CreatedBefore.UTC())
	}
	if f.UpdatedSince != nil {
		where(` AND updated_at >= ?`, f.UpdatedSince.UTC())
	}
	if page.After != nil {
		where(` AND (created_at < ? OR (created_at = ? AND id < ?))`, page.After.CreatedAt, page.After.CreatedAt, page.After.ID)
	}
	where(` ORDER BY created_at DESC, id DESC LIMIT ?`, page.Fetch())

	q := r.db.Read(ctx)
	rows, err := sqldb.All[orders.Order](ctx, q, r.db.Rebind(b.String()), args...)
	if err != nil {
		return platform.Page[*orders.Order]{}, err
	}
	cut := platform.CutPage(rows, page, func(row orders.Order) platform.Position {
		return platform.Position{CreatedAt: row.CreatedAt, ID: row.ID}
	})
	return platform.MapPage(cut, func(rows []orders.Order) ([]*orders.Order, error) {
		return load(ctx, r.db, q, workspaceID, rows)
	})
}

// Get returns the order or NotFound.
func (r *Reads) Get(ctx context.Context, workspaceID, id string) (*orders.Order, error) {
	return one(ctx, r.db, r.db.Read(ctx), r.get, workspaceID, id)
}

// FirstActivity returns the earliest payment or refund, any workspace.
func (r *Reads) FirstActivity(ctx context.Context) (time.Time, bool, error) {
	return r.db.Earliest(ctx,
		`SELECT paid_at FROM orders ORDER BY paid_at LIMIT 1`,
		`SELECT at FROM order_history ORDER BY at LIMIT 1`)
}

// The ports, checked at compile time.
var (
	_ query.ReadModel   = (*Reads)(nil)
	_ query.Published   = (*Reads)(nil)
	_ orders.Repository = (*Repository)(nil)
)
