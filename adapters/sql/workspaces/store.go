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
type Store struct{ sqldb.Prepared[statements] }

type statements struct{ Insert, InsertSandbox, Get, Exists, Founded string }

// workspaceColumns selects a row that scans straight into workspaces.Workspace.
const workspaceColumns = `SELECT id, name, owner_email, COALESCE(sandbox_of, '') AS sandbox_of, created_at FROM workspaces`

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	const cols = workspaceColumns
	return &Store{sqldb.Prepare(db, statements{
		Insert: `INSERT INTO workspaces (id, name, owner_email, created_at) VALUES (?, ?, ?, ?)`,
		// Two first test keys at once both try to open the sandbox: the second insert
		// does nothing and both go on with the one row.
		InsertSandbox: `INSERT INTO workspaces (id, name, owner_email, sandbox_of, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (id) DO NOTHING`,
		Get:    cols + ` WHERE id = ?`,
		Exists: `SELECT 1 FROM workspaces WHERE id = ?`,
		// LOWER(owner_email) has no index: workspaces are few per deployment and
		// sign-in, the only caller, is rare.
		// A sandbox is reached through its live workspace, never listed beside it.
		Founded: cols + ` WHERE LOWER(owner_email) = ? AND sandbox_of IS NULL ORDER BY id`,
	})}
}

// Add inserts w; ids are generated, so a second workspace with w's id is an error.
func (s *Store) Add(ctx context.Context, w *workspaces.Workspace) error {
	return s.DB.Exec(ctx, "insert workspace", s.Q.Insert, w.ID, w.Name, w.OwnerEmail, w.CreatedAt)
}

// AddSandbox inserts w unless its (derived) id exists already, and reports whether it
// inserted it.
func (s *Store) AddSandbox(ctx context.Context, w *workspaces.Workspace) (bool, error) {
	return s.DB.Changes(ctx, "insert sandbox workspace", s.Q.InsertSandbox, w.ID, w.Name, w.OwnerEmail, w.SandboxOf, w.CreatedAt)
}

// Get returns the workspace or NotFound.
func (s *Store) Get(ctx context.Context, id string) (*workspaces.Workspace, error) {
	var w workspaces.Workspace
	if err := sqldb.One(ctx, s.DB.Read(ctx), &w, kernel.NotFound("workspace %s not found", id), s.Q.Get, id); err != nil {
		return nil, err
	}
	return &w, nil
}

// Exists tells whether the workspace exists.
func (s *Store) Exists(ctx context.Context, id string) (bool, error) {
	return sqldb.Exists(ctx, s.DB.Read(ctx), s.Q.Exists, id)
}

// Find returns the workspaces among ids.
func (s *Store) Find(ctx context.Context, ids []string) (map[string]workspaces.Workspace, error) {
	out := make(map[string]workspaces.Workspace, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	q, args, err := sqlx.In(workspaceColumns+` WHERE id IN (?)`, ids) // expanded per call, then rebound
	if err != nil {
		return nil, fmt.Errorf("find workspaces: %w", err)
	}
	rows, err := sqldb.All[workspaces.Workspace](ctx, s.DB.Read(ctx), s.DB.Rebind(q), args...)
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
	return sqldb.All[workspaces.Workspace](ctx, s.DB.Read(ctx), s.Q.Founded, strings.ToLower(email))
}
