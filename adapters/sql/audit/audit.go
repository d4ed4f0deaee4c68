// Package audit stores the audit log (table audit_log) on PostgreSQL and SQLite.
package audit

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	appaudit "github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/platform"
)

// IDPrefix prefixes entry ids (aud_...).
const IDPrefix = "aud"

// Log writes entries on the caller's transaction and pages them.
type Log struct {
	db                  *sqldb.DB
	ids                 platform.IDs
	clock               platform.Clock
	insert, first, next string
}

// NewLog prepares the statements for db's dialect.
func NewLog(db *sqldb.DB, ids platform.IDs, clock platform.Clock) *Log {
	const cols = `SELECT id, workspace_id, actor, address, action, target, detail, created_at FROM audit_log WHERE workspace_id = ?`
	const order = ` ORDER BY created_at DESC, id DESC LIMIT ?`
	return &Log{
		db: db, ids: ids, clock: clock,
		insert: db.Rebind(`INSERT INTO audit_log (id, workspace_id, actor, address, action, target, detail, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
		first:  db.Rebind(cols + order),
		next:   db.Rebind(cols + ` AND (created_at, id) < (?, ?)` + order), // a row value keeps the seek on the index
	}
}

// Record writes e with the actor of ctx. Outside a transaction it writes alone, which
// only tests do: every command handler calls it inside its own.
func (l *Log) Record(ctx context.Context, e platform.AuditEntry) error {
	a := platform.ActorFrom(ctx)
	_, err := l.db.Write(ctx).ExecContext(ctx, l.insert, l.ids.New(IDPrefix), e.WorkspaceID, a.Who(), a.Address,
		e.Action, e.Target, e.Detail, l.clock.Now())
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.Action, err)
	}
	return nil
}

// Page returns one keyset page, newest first.
func (l *Log) Page(ctx context.Context, workspaceID string, req platform.PageRequest) (platform.Page[appaudit.Entry], error) {
	stmt, args := l.first, []any{workspaceID, req.Fetch()}
	if req.After != nil {
		stmt, args = l.next, []any{workspaceID, req.After.CreatedAt.UTC(), req.After.ID, req.Fetch()}
	}
	rows, err := sqldb.All[appaudit.Entry](ctx, l.db.Read(ctx), stmt, args...)
	if err != nil {
		return platform.Page[appaudit.Entry]{}, err
	}
	return platform.CutPage(rows, req, func(e appaudit.Entry) platform.Position {
		return platform.Position{CreatedAt: e.CreatedAt, ID: e.ID}
	}), nil
}
