// Package sqlstore implements the repositories and read models on PostgreSQL and SQLite
// with the same SQL; where the dialects differ, the difference is named at the statement.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Workspaces stores workspaces.
type Workspaces struct {
	db                   *sqldb.DB
	insert, get, existsQ string
}

// NewWorkspaces prepares the statements for db's dialect.
func NewWorkspaces(db *sqldb.DB) *Workspaces {
	return &Workspaces{
		db:      db,
		insert:  db.Rebind(`INSERT INTO workspaces (id, name, owner_email, created_at) VALUES (?, ?, ?, ?)`),
		get:     db.Rebind(`SELECT id, name, owner_email, created_at FROM workspaces WHERE id = ?`),
		existsQ: db.Rebind(`SELECT 1 FROM workspaces WHERE id = ?`),
	}
}

type workspaceRow struct {
	ID         string    `db:"id"`
	Name       string    `db:"name"`
	OwnerEmail string    `db:"owner_email"`
	CreatedAt  time.Time `db:"created_at"`
}

// Add inserts w.
func (r *Workspaces) Add(ctx context.Context, w *workspaces.Workspace) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.insert, w.ID, w.Name, w.OwnerEmail, w.CreatedAt); err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// Get returns the workspace or NotFound.
func (r *Workspaces) Get(ctx context.Context, id string) (*workspaces.Workspace, error) {
	var row workspaceRow
	err := r.db.Read(ctx).GetContext(ctx, &row, r.get, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("workspace %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get workspace: %w", err)
	}
	return &workspaces.Workspace{ID: row.ID, Name: row.Name, OwnerEmail: row.OwnerEmail, CreatedAt: row.CreatedAt}, nil
}

// Exists tells whether the workspace exists.
func (r *Workspaces) Exists(ctx context.Context, id string) (bool, error) {
	var one int
	err := r.db.Read(ctx).GetContext(ctx, &one, r.existsQ, id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("workspace exists: %w", err)
	}
	return true, nil
}
