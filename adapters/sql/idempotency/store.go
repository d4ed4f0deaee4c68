// Package idempotency stores the public API's Idempotency-Key records (table
// idempotency_keys) on PostgreSQL and SQLite.
package idempotency

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/idempotency"
)

// Store keeps the records in the caller's transaction (idempotency.Store).
type Store struct{ sqldb.Prepared[statements] }

type statements struct{ Claim, Get, Complete, Release, Purge string }

const where = ` WHERE workspace_id = ? AND key_id = ? AND idempotency_key = ?`

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	return &Store{sqldb.Prepare(db, statements{
		// The primary key decides between racing claims. On PostgreSQL the insert of a
		// key another transaction inserted waits for that transaction: after its commit
		// the conflict updates nothing (0 rows: not claimed), after its rollback the row
		// is inserted. SQLite has one writer, so the second claim runs after the first's
		// commit. A record past the window is taken over in place (the purge may not
		// have run yet).
		Claim: `INSERT INTO idempotency_keys (workspace_id, key_id, idempotency_key, fingerprint, created_at) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (workspace_id, key_id, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
				status = NULL, content_type = '', body = NULL, created_at = excluded.created_at
			WHERE idempotency_keys.created_at < ?`,
		Get:      `SELECT fingerprint, COALESCE(status, 0) AS status, content_type, body, created_at FROM idempotency_keys` + where,
		Complete: `UPDATE idempotency_keys SET status = ?, content_type = ?, body = ?` + where,
		Release:  `DELETE FROM idempotency_keys` + where,
		// In batches by age (the created_at index), so that one run never holds
		// SQLite's writer for long.
		Purge: `DELETE FROM idempotency_keys WHERE (workspace_id, key_id, idempotency_key) IN (
			SELECT workspace_id, key_id, idempotency_key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
	})}
}

func args(k idempotency.Key, before ...any) []any {
	return append(before, k.WorkspaceID, k.KeyID, k.Value)
}

// Claim inserts the placeholder of k, or takes over a record created before expiredBefore.
func (s *Store) Claim(ctx context.Context, k idempotency.Key, fingerprint []byte, now, expiredBefore time.Time) (bool, error) {
	return s.DB.Changes(ctx, "claim idempotency key", s.Q.Claim, k.WorkspaceID, k.KeyID, k.Value, fingerprint, now, expiredBefore)
}

// Get reads the record of k.
func (s *Store) Get(ctx context.Context, k idempotency.Key) (idempotency.Record, error) {
	var r idempotency.Record
	err := sqldb.One(ctx, s.DB.Write(ctx), &r, sql.ErrNoRows, s.Q.Get, args(k)...)
	if err != nil {
		return r, fmt.Errorf("read idempotency record: %w", err)
	}
	return r, nil
}

// Complete stores a in the placeholder of k.
func (s *Store) Complete(ctx context.Context, k idempotency.Key, a idempotency.Answer) error {
	return s.DB.Exec(ctx, "store idempotent answer", s.Q.Complete, args(k, a.Status, a.ContentType, a.Body)...)
}

// Release deletes the placeholder of k.
func (s *Store) Release(ctx context.Context, k idempotency.Key) error {
	return s.DB.Exec(ctx, "release idempotency key", s.Q.Release, args(k)...)
}

// Purge deletes up to limit records created before cutoff, oldest first.
func (s *Store) Purge(ctx context.Context, cutoff time.Time, limit int) (int, error) {
	res, err := s.DB.Write(ctx).ExecContext(ctx, s.Q.Purge, cutoff, limit)
	if err != nil {
		return 0, fmt.Errorf("purge idempotency records: %w", err)
	}
	n, err := res.RowsAffected()
	return int(n), err
}
