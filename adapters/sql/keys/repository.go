// Package keys is the keys module's persistence: it owns the api_keys and
// api_key_requests_daily tables (docs/architecture.md, "Table ownership").
package keys

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Repository stores API keys (keys.Repository) and reads them a page at a time
// (query.KeyPages).
type Repository struct {
	sqldb.Prepared[statements]
	byLookup *sqldb.Cache[keys.Key]
}

// LookupCache names the cache of keys by lookup part: a revocation invalidates its key's
// entry in its transaction, and returns once every instance has dropped it (sqldb.Caches).
const LookupCache = "api_keys"

type statements struct{ Insert, Get, ByLookup, List, Revoke, FirstPage, NextPage, Count string }

// NewRepository prepares the statements for db's dialect.
func NewRepository(db *sqldb.DB) *Repository {
	return &Repository{byLookup: sqldb.NewCache[keys.Key](db, LookupCache, 100_000), Prepared: sqldb.Prepare(db, statements{
		Insert:   `INSERT INTO api_keys (` + keyColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		Get:      `SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? AND id = ?`,
		ByLookup: `SELECT ` + keyColumns + ` FROM api_keys WHERE lookup = ?`,
		List:     `SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC`,
		Revoke:   `UPDATE api_keys SET revoked_at = ? WHERE workspace_id = ? AND id = ? AND revoked_at IS NULL`,
		// The dashboard's pages: row-value comparison keeps the keyset seek on the index.
		FirstPage: `SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
		NextPage:  `SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`,
		Count: `SELECT COALESCE(SUM(CASE WHEN revoked_at IS NULL THEN 1 ELSE 0 END), 0) AS active,
			COALESCE(SUM(CASE WHEN revoked_at IS NULL AND created_at < ? THEN 1 ELSE 0 END), 0) AS due
			FROM api_keys WHERE workspace_id = ?`,
	})}
}

// Add inserts k.
func (r *Repository) Add(ctx context.Context, k *keys.Key) error {
	return r.DB.Exec(ctx, "insert key", r.Q.Insert, k.ID, k.WorkspaceID, k.Name, k.Lookup, k.LastFour, k.SecretHash,
		scopesColumn(k.Scopes), k.PerMinute, k.PerDay, k.CreatedAt, k.RevokedAt, k.LastUsedAt)
}

// Get returns the key of the workspace or NotFound.
func (r *Repository) Get(ctx context.Context, workspaceID, id string) (*keys.Key, error) {
	return r.one(ctx, r.Q.Get, "key "+id, workspaceID, id)
}

// FindByLookup returns the key with this lookup part or NotFound: from memory while the
// database's caches are trusted (an unknown lookup is asked every time).
func (r *Repository) FindByLookup(ctx context.Context, lookup string) (*keys.Key, error) {
	k, err := r.byLookup.Get(ctx, lookup, func(ctx context.Context) (keys.Key, error) {
		k, err := r.one(ctx, r.Q.ByLookup, "key", lookup)
		if err != nil {
			return keys.Key{}, err
		}
		return *k, nil
	})
	if err != nil {
		return nil, err
	}
	return &k, nil
}

func (r *Repository) one(ctx context.Context, query, what string, args ...any) (*keys.Key, error) {
	var row keyRow
	if err := sqldb.One(ctx, r.DB.Read(ctx), &row, kernel.NotFound("%s not found", what), query, args...); err != nil {
		return nil, err
	}
	return row.key(), nil
}

// List returns the workspace's keys, newest first.
func (r *Repository) List(ctx context.Context, workspaceID string) ([]*keys.Key, error) {
	rows, err := sqldb.All[keyRow](ctx, r.DB.Read(ctx), r.Q.List, workspaceID)
	return keysOf(rows), err
}

// Page returns up to limit keys after after (nil: from the newest), newest first.
func (r *Repository) Page(ctx context.Context, workspaceID string, after *platform.Position, limit int) ([]*keys.Key, error) {
	stmt, args := r.Q.FirstPage, []any{workspaceID, limit}
	if after != nil {
		stmt, args = r.Q.NextPage, []any{workspaceID, after.CreatedAt.UTC(), after.ID, limit}
	}
	rows, err := sqldb.All[keyRow](ctx, r.DB.Read(ctx), stmt, args...)
	return keysOf(rows), err
}

// Count returns the active keys and those created before rotateBefore.
func (r *Repository) Count(ctx context.Context, workspaceID string, rotateBefore time.Time) (active, due int, err error) {
	var c struct{ Active, Due int }
	err = sqldb.One(ctx, r.DB.Read(ctx), &c, nil, r.Q.Count, rotateBefore, workspaceID)
	return c.Active, c.Due, err
}

// SaveRevocation stores the revocation time unless the key was revoked already (the
// earlier time is kept); revoked tells whether this call stored it. Racing calls are
// settled by the row: the UPDATE of the second finds revoked_at set.
// Every instance's cached copy is dropped before the command returns (sqldb.Caches.Invalidate).
func (r *Repository) SaveRevocation(ctx context.Context, k *keys.Key) (revoked bool, err error) {
	revoked, err = r.DB.Changes(ctx, "revoke key", r.Q.Revoke, k.RevokedAt, k.WorkspaceID, k.ID)
	if err != nil || !revoked {
		return revoked, err
	}
	return true, r.DB.Caches().Invalidate(ctx, LookupCache, k.Lookup)
}
