// Package audit stores the audit log (table audit_log) on PostgreSQL and SQLite.
package audit

import (
	"context"
	"fmt"
	"time"

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

type row struct {
	ID          string    `db:"id"`
	WorkspaceID string    `db:"workspace_id"`
	Actor       string    `db:"actor"`
	Address     string    `db:"address"`
	Action      string    `db:"action"`
	Target      string    `db:"target"`
	Detail      string    `db:"detail"`
	CreatedAt   time.Time `db:"created_at"`
}

// Page returns one keyset page, newest first.
func (l *Log) Page(ctx context.Context, workspaceID string, req platform.PageRequest) (platform.Page[appaudit.Entry], error) {
	var rows []row
	var err error
	if req.After == nil {
		err = l.db.Read(ctx).SelectContext(ctx, &rows, l.first, workspaceID, req.Fetch())
	} else {
		err = l.db.Read(ctx).SelectContext(ctx, &rows, l.next, workspaceID, req.After.CreatedAt.UTC(), req.After.ID, req.Fetch())
	}
	if err != nil {
		return platform.Page[appaudit.Entry]{}, fmt.Errorf("read audit log: %w", err)
	}
	cut := platform.CutPage(rows, req, func(r row) platform.Position { return platform.Position{CreatedAt: r.CreatedAt, ID: r.ID} })
	return platform.MapPage(cut, func(rows []row) ([]appaudit.Entry, error) {
		out := make([]appaudit.Entry, len(rows))
		for i, r := range rows {
			out[i] = appaudit.Entry{ID: r.ID, WorkspaceID: r.WorkspaceID, Actor: r.Actor, Address: r.Address,
				Action: r.Action, Target: r.Target, Detail: r.Detail, CreatedAt: r.CreatedAt.UTC()}
		}
		return out, nil
	})
}
