package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

const keyColumns = `id, workspace_id, name, lookup, last_four, secret_hash, scopes, per_minute, per_day, created_at, revoked_at, last_used_at`

// Keys stores API keys.
type Keys struct {
	db                                        *sqldb.DB
	insert, get, byLookup, list, revoke, used string
	firstPage, nextPage, count                string
}

// NewKeys prepares the statements for db's dialect.
func NewKeys(db *sqldb.DB) *Keys {
	return &Keys{
		db:       db,
		insert:   db.Rebind(`INSERT INTO api_keys (` + keyColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		get:      db.Rebind(`SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? AND id = ?`),
		byLookup: db.Rebind(`SELECT ` + keyColumns + ` FROM api_keys WHERE lookup = ?`),
		list:     db.Rebind(`SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC`),
		revoke:   db.Rebind(`UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL`),
		used:     db.Rebind(`UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`),
		// The dashboard's pages: row-value comparison keeps the keyset seek on the index.
		firstPage: db.Rebind(`SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`),
		nextPage:  db.Rebind(`SELECT ` + keyColumns + ` FROM api_keys WHERE workspace_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC LIMIT ?`),
		count: db.Rebind(`SELECT COALESCE(SUM(CASE WHEN revoked_at IS NULL THEN 1 ELSE 0 END), 0) AS active,
			COALESCE(SUM(CASE WHEN revoked_at IS NULL AND created_at < ? THEN 1 ELSE 0 END), 0) AS due
			FROM api_keys WHERE workspace_id = ?`),
	}
}

type keyRow struct {
	ID          string     `db:"id"`
	WorkspaceID string     `db:"workspace_id"`
	Name        string     `db:"name"`
	Lookup      string     `db:"lookup"`
	LastFour    string     `db:"last_four"`
	SecretHash  []byte     `db:"secret_hash"`
	Scopes      string     `db:"scopes"`
	PerMinute   int        `db:"per_minute"`
	PerDay      int        `db:"per_day"`
	CreatedAt   time.Time  `db:"created_at"`
	RevokedAt   *time.Time `db:"revoked_at"`
	LastUsedAt  *time.Time `db:"last_used_at"`
}

func (row keyRow) key() *keys.Key {
	var scopes []keys.Scope
	for _, s := range strings.Fields(row.Scopes) {
		scopes = append(scopes, keys.Scope(s))
	}
	return &keys.Key{
		ID: row.ID, WorkspaceID: row.WorkspaceID, Name: row.Name, Lookup: row.Lookup, LastFour: row.LastFour, SecretHash: row.SecretHash,
		Scopes: scopes, PerMinute: row.PerMinute, PerDay: row.PerDay,
		CreatedAt: row.CreatedAt, RevokedAt: utcPtr(row.RevokedAt), LastUsedAt: utcPtr(row.LastUsedAt),
	}
}

// Add inserts k.
func (r *Keys) Add(ctx context.Context, k *keys.Key) error {
	scopes := make([]string, len(k.Scopes))
	for i, s := range k.Scopes {
		scopes[i] = string(s)
	}
	_, err := r.db.Write(ctx).ExecContext(ctx, r.insert, k.ID, k.WorkspaceID, k.Name, k.Lookup, k.LastFour, k.SecretHash,
		strings.Join(scopes, " "), k.PerMinute, k.PerDay, k.CreatedAt, k.RevokedAt, k.LastUsedAt)
	if err != nil {
		return fmt.Errorf("insert key: %w", err)
	}
	return nil
}

// Get returns the key of the workspace or NotFound.
func (r *Keys) Get(ctx context.Context, workspaceID, id string) (*keys.Key, error) {
	return r.one(ctx, r.get, "key "+id, workspaceID, id)
}

// FindByLookup returns the key with this lookup part or NotFound.
func (r *Keys) FindByLookup(ctx context.Context, lookup string) (*keys.Key, error) {
	return r.one(ctx, r.byLookup, "key", lookup)
}

func (r *Keys) one(ctx context.Context, query, what string, args ...any) (*keys.Key, error) {
	var row keyRow
	err := r.db.Read(ctx).GetContext(ctx, &row, query, args...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, kernel.NotFound("%s not found", what)
	}
	if err != nil {
		return nil, fmt.Errorf("get key: %w", err)
	}
	return row.key(), nil
}

// List returns the workspace's keys, newest first.
func (r *Keys) List(ctx context.Context, workspaceID string) ([]*keys.Key, error) {
	var rows []keyRow
	if err := r.db.Read(ctx).SelectContext(ctx, &rows, r.list, workspaceID); err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	out := make([]*keys.Key, len(rows))
	for i, row := range rows {
		out[i] = row.key()
	}
	return out, nil
}

// Page returns up to limit keys after after (nil: from the newest), newest first.
func (r *Keys) Page(ctx context.Context, workspaceID string, after *platform.Position, limit int) ([]*keys.Key, error) {
	var rows []keyRow
	var err error
	if after == nil {
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.firstPage, workspaceID, limit)
	} else {
		err = r.db.Read(ctx).SelectContext(ctx, &rows, r.nextPage, workspaceID, after.CreatedAt.UTC(), after.ID, limit)
	}
	if err != nil {
		return nil, fmt.Errorf("page keys: %w", err)
	}
	out := make([]*keys.Key, len(rows))
	for i, row := range rows {
		out[i] = row.key()
	}
	return out, nil
}

// Count returns the active keys and those created before rotateBefore.
func (r *Keys) Count(ctx context.Context, workspaceID string, rotateBefore time.Time) (active, due int, err error) {
	var c struct {
		Active int `db:"active"`
		Due    int `db:"due"`
	}
	if err := r.db.Read(ctx).GetContext(ctx, &c, r.count, rotateBefore, workspaceID); err != nil {
		return 0, 0, fmt.Errorf("count keys: %w", err)
	}
	return c.Active, c.Due, nil
}

// SaveRevocation stores the revocation time; an earlier revocation is kept.
func (r *Keys) SaveRevocation(ctx context.Context, k *keys.Key) error {
	if _, err := r.db.Write(ctx).ExecContext(ctx, r.revoke, k.RevokedAt, k.ID); err != nil {
		return fmt.Errorf("revoke key: %w", err)
	}
	return nil
}

// TouchLastUsed moves last_used_at forward, never back, in one transaction.
func (r *Keys) TouchLastUsed(ctx context.Context, lastUsed map[string]time.Time) error {
	return r.db.WithinTx(ctx, func(ctx context.Context) error {
		for id, at := range lastUsed {
			if _, err := r.db.Write(ctx).ExecContext(ctx, r.used, at, id, at); err != nil {
				return fmt.Errorf("touch key %s: %w", id, err)
			}
		}
		return nil
	})
}
