// Package workspaces stores the tenant module's table (workspaces) on PostgreSQL and
// SQLite: the repository and the published directory other modules read through.
package workspaces

import (
	"context"
	"fmt"
	"strings"

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

// Add inserts w; ids are generated, so a second workspace with w's id is an error.
func (s *Store) Add(ctx context.Context, w *workspaces.Workspace) error {
	return s.db.Exec(ctx, "insert workspace", s.insert, w.ID, w.Name, w.OwnerEmail, w.CreatedAt)
}

// Get returns the workspace or NotFound.
func (s *Store) Get(ctx context.Context, id string) (*workspaces.Workspace, error) {
	var w workspaces.Workspace
	if err := sqldb.One(ctx, s.db.Read(ctx), &w, kernel.NotFound("workspace %s not found", id), s.get, id); err != nil {
		return nil, err
	}
	return &w, nil
}

// Exists tells whether the workspace exists.
func (s *Store) Exists(ctx context.Context, id string) (bool, error) {
	return sqldb.Exists(ctx, s.db.Read(ctx), s.existsQ, id)
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
	rows, err := sqldb.All[workspaces.Workspace](ctx, s.db.Read(ctx), s.db.Rebind(q), args...)
	if err != nil {
		return nil, err
	}
	for _, w := range rows {
		out[w.ID] = w
	}
	return out, nil
}

// FoundedBy lists the workspaces email founded.
func (s *Store) FoundedBy(ctx context.Context, email string) ([]workspaces.Workspace, error) {
	return sqldb.All[workspaces.Workspace](ctx, s.db.Read(ctx), s.founded, strings.ToLower(email))
}
