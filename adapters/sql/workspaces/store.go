// Package workspaces stores the tenant module's table (workspaces) on PostgreSQL and
// SQLite: the repository and the published directory other modules read through.
package workspaces

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Store implements workspaces.Repository and query.Directory.
type Store struct {
	db                                  *sqldb.DB
	insert, get, existsQ, find, founded string
}

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	const cols = `SELECT id, name, owner_email, created_at FROM workspaces`
	return &Store{
		db:      db,
		insert:  db.Rebind(`INSERT INTO workspaces (id, name, owner_email, created_at) VALUES (?, ?, ?, ?)`),
		get:     db.Rebind(cols + ` WHERE id = ?`),
		existsQ: db.Rebind(`SELECT 1 FROM workspaces WHERE id = ?`),
		find:    cols + ` WHERE id IN (?)`, // expanded by sqlx.In, then rebound
		// LOWER(owner_email) has no index: workspaces are few per deployment and
		// sign-in, the only caller, is rare.
		founded: db.Rebind(cols + ` WHERE LOWER(owner_email) = ? ORDER BY id`),
	}
}

type row struct {
	ID         string    `db:"id"`
	Name       string    `db:"name"`
	OwnerEmail string    `db:"owner_email"`
	CreatedAt  time.Time `db:"created_at"`
}

func (r row) workspace() workspaces.Workspace {
	return workspaces.Workspace{ID: r.ID, Name: r.Name, OwnerEmail: r.OwnerEmail, CreatedAt: r.CreatedAt.UTC()}
}

// Add inserts w; ids are generated, so a second workspace with w's id is an error.
func (s *Store) Add(ctx context.Context, w *workspaces.Workspace) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.insert, w.ID, w.Name, w.OwnerEmail, w.CreatedAt); err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// Get returns the workspace or NotFound.
func (s *Store) Get(ctx context.Context, id string) (*workspaces.Workspace, error) {
	var r row
	err := s.db.Read(ctx).GetContext(ctx, &r, s.get, id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("workspace %s not found", id)
	}
	if err != nil {
		return nil, fmt.Errorf("get workspace: %w", err)
	}
	w := r.workspace()
	return &w, nil
}

// Exists tells whether the workspace exists.
func (s *Store) Exists(ctx context.Context, id string) (bool, error) {
	var one int
	err := s.db.Read(ctx).GetContext(ctx, &one, s.existsQ, id)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("workspace exists: %w", err)
	}
	return true, nil
}

// Find returns the workspaces among ids.
func (s *Store) Find(ctx context.Context, ids []string) (map[string]workspaces.Workspace, error) {
	out := make(map[string]workspaces.Workspace, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(s.find, ids)
	if err != nil {
		return nil, fmt.Errorf("find workspaces: %w", err)
	}
	var rows []row
	if err := s.db.Read(ctx).SelectContext(ctx, &rows, s.db.Rebind(q), args...); err != nil {
		return nil, fmt.Errorf("find workspaces: %w", err)
	}
	for _, r := range rows {
		out[r.ID] = r.workspace()
	}
	return out, nil
}

// FoundedBy lists the workspaces email founded.
func (s *Store) FoundedBy(ctx context.Context, email string) ([]workspaces.Workspace, error) {
	var rows []row
	if err := s.db.Read(ctx).SelectContext(ctx, &rows, s.founded, strings.ToLower(email)); err != nil {
		return nil, fmt.Errorf("workspaces founded by: %w", err)
	}
	out := make([]workspaces.Workspace, len(rows))
	for i, r := range rows {
		out[i] = r.workspace()
	}
	return out, nil
}
