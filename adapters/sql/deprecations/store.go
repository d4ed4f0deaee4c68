// Package deprecations is the deprecations module's persistence: it owns the
// deprecated_calls and deprecation_notices tables (docs/architecture.md, "Table
// ownership").
package deprecations

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// Store keeps the per-key counts of deprecated calls and the sunset notices.
type Store struct {
	sqldb.Prepared[statements]
}

type statements struct{ Add, Calls, Calling, AddNotice, Unsent, Lease, Sent string }

const callColumns = `workspace_id, key_id, route, calls, first_seen, last_seen, sunset`

const noticeColumns = `workspace_id, key_id, sunset, threshold_days, recipient AS "to", subject, body, created_at`

// NewStore prepares the statements for db's dialect.
func NewStore(db *sqldb.DB) *Store {
	return &Store{sqldb.Prepare(db, statements{
		// The upsert adds to the row, so racing flushes of two replicas both count; CASE
		// rather than GREATEST/LEAST, which SQLite lacks (its MAX/MIN PostgreSQL lacks).
		Add: `INSERT INTO deprecated_calls (` + callColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (workspace_id, key_id, route) DO UPDATE SET
				calls = deprecated_calls.calls + excluded.calls,
				first_seen = CASE WHEN excluded.first_seen < deprecated_calls.first_seen THEN excluded.first_seen ELSE deprecated_calls.first_seen END,
				sunset = CASE WHEN excluded.last_seen >= deprecated_calls.last_seen THEN excluded.sunset ELSE deprecated_calls.sunset END,
				last_seen = CASE WHEN excluded.last_seen > deprecated_calls.last_seen THEN excluded.last_seen ELSE deprecated_calls.last_seen END`,
		Calls: `SELECT ` + callColumns + ` FROM deprecated_calls WHERE workspace_id = ? ORDER BY key_id, route`,
		// Every workspace's: the notifier serves them all, like the webhook notifier.
		Calling: `SELECT ` + callColumns + ` FROM deprecated_calls WHERE sunset > ? AND last_seen >= ?
			ORDER BY workspace_id, key_id, sunset, route`,
		AddNotice: `INSERT INTO deprecation_notices (workspace_id, key_id, sunset, threshold_days, recipient, subject, body, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id, key_id, sunset, threshold_days) DO NOTHING`,
		Unsent: `SELECT ` + noticeColumns + ` FROM deprecation_notices
			WHERE sent_at IS NULL AND (lease_until IS NULL OR lease_until <= ?) ORDER BY created_at, key_id LIMIT ?`,
		// A conditional update is the claim on both engines: only one instance changes the row.
		Lease: `UPDATE deprecation_notices SET lease_until = ? WHERE workspace_id = ? AND key_id = ? AND sunset = ?
			AND threshold_days = ? AND sent_at IS NULL AND (lease_until IS NULL OR lease_until <= ?)`,
		Sent: `UPDATE deprecation_notices SET sent_at = ?, lease_until = NULL
			WHERE workspace_id = ? AND key_id = ? AND sunset = ? AND threshold_days = ?`,
	})}
}

// AddCalls adds the counts in one transaction, in (workspace, key, route) order, so that
// racing flushes wait for each other instead of deadlocking.
func (s *Store) AddCalls(ctx context.Context, calls []deprecations.Call) error {
	ordered := slices.SortedFunc(slices.Values(calls), func(a, b deprecations.Call) int {
		return cmp.Or(cmp.Compare(a.WorkspaceID, b.WorkspaceID), cmp.Compare(a.KeyID, b.KeyID), cmp.Compare(a.Route, b.Route))
	})
	return s.DB.WithinTx(ctx, func(ctx context.Context) error {
		for _, c := range ordered {
			if err := s.DB.Exec(ctx, "add deprecated calls", s.Q.Add, c.WorkspaceID, c.KeyID, c.Route, c.Calls,
				c.FirstSeen, c.LastSeen, c.Sunset); err != nil {
				return err
			}
		}
		return nil
	})
}

// Calls lists the workspace's rows, by key then route.
func (s *Store) Calls(ctx context.Context, workspaceID string) ([]deprecations.Call, error) {
	return sqldb.All[deprecations.Call](ctx, s.DB.Read(ctx), s.Q.Calls, workspaceID)
}

// CallingBefore lists the rows whose sunset is after now and last call at or after since.
func (s *Store) CallingBefore(ctx context.Context, now, since time.Time) ([]deprecations.Call, error) {
	return sqldb.All[deprecations.Call](ctx, s.DB.Read(ctx), s.Q.Calling, now, since)
}

// AddNotice stores n once per (workspace, key, sunset, threshold).
func (s *Store) AddNotice(ctx context.Context, n deprecations.Notice) (bool, error) {
	return s.DB.Changes(ctx, "add sunset notice", s.Q.AddNotice, n.WorkspaceID, n.KeyID, n.Sunset, n.ThresholdDays,
		n.To, n.Subject, n.Body, n.CreatedAt)
}

// ClaimNotices leases up to limit unsent notices until leaseUntil.
func (s *Store) ClaimNotices(ctx context.Context, now, leaseUntil time.Time, limit int) ([]deprecations.Notice, error) {
	unsent, err := sqldb.All[deprecations.Notice](ctx, s.DB.Read(ctx), s.Q.Unsent, now, limit)
	if err != nil {
		return nil, err
	}
	var out []deprecations.Notice
	for _, n := range unsent {
		leased, err := s.DB.Changes(ctx, "lease sunset notice", s.Q.Lease, leaseUntil, n.WorkspaceID, n.KeyID, n.Sunset,
			n.ThresholdDays, now)
		if err != nil {
			return nil, err
		}
		if leased { // else another instance took it
			out = append(out, n)
		}
	}
	return out, nil
}

// MarkSent records that n was sent.
func (s *Store) MarkSent(ctx context.Context, n deprecations.Notice, at time.Time) error {
	return s.DB.Exec(ctx, "mark sunset notice sent", s.Q.Sent, at, n.WorkspaceID, n.KeyID, n.Sunset, n.ThresholdDays)
}

var _ deprecations.Repository = (*Store)(nil)
