package keys

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/keys/query"
)

// Usage stores what the usage buffer flushes (query.UsageStore: last uses, request
// counts per key and day) and reads the counts back (query.RequestCounts).
type Usage struct {
	sqldb.Prepared[usageStatements]
}

type usageStatements struct{ Touch, Add, Counts string }

// NewUsage prepares the statements for db's dialect.
func NewUsage(db *sqldb.DB) *Usage {
	return &Usage{sqldb.Prepare(db, usageStatements{
		Touch: `UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)`,
		// The key's own row gives the workspace; an unknown key inserts nothing. The
		// upsert adds to the day's row, so racing flushes of two replicas both count.
		Add: `INSERT INTO api_key_requests_daily (workspace_id, key_id, day, requests)
			SELECT workspace_id, id, ?, ? FROM api_keys WHERE id = ?
			ON CONFLICT (workspace_id, day, key_id) DO UPDATE SET requests = api_key_requests_daily.requests + excluded.requests`,
		Counts: `SELECT r.key_id, k.name, r.day, r.requests
			FROM api_key_requests_daily r JOIN api_keys k ON k.id = r.key_id
			WHERE r.workspace_id = ? AND r.day >= ? AND r.day <= ? ORDER BY k.name, r.key_id, r.day`,
	})}
}

// TouchLastUsed moves last_used_at forward, never back, in one transaction. Rows are
// written in key order, so that racing flushes (replicas) wait for each other instead
// of deadlocking.
func (u *Usage) TouchLastUsed(ctx context.Context, lastUsed map[string]time.Time) error {
	ids := slices.Sorted(maps.Keys(lastUsed))
	return u.DB.WithinTx(ctx, func(ctx context.Context) error {
		for _, id := range ids {
			at := lastUsed[id]
			if _, err := u.DB.Write(ctx).ExecContext(ctx, u.Q.Touch, at, id, at); err != nil {
				return fmt.Errorf("touch key %s: %w", id, err)
			}
		}
		return nil
	})
}

// AddRequests adds the counts in one transaction, a statement per key and day (a flush
// holds at most the keys used since the last one), in key and day order, so that
// racing flushes wait for each other instead of deadlocking.
func (u *Usage) AddRequests(ctx context.Context, counts map[query.KeyDay]int64) error {
	order := slices.SortedFunc(maps.Keys(counts), func(a, b query.KeyDay) int {
		return cmp.Or(cmp.Compare(a.KeyID, b.KeyID), cmp.Compare(a.Day, b.Day))
	})
	err := u.DB.WithinTx(ctx, func(ctx context.Context) error {
		for _, k := range order {
			if _, err := u.DB.Write(ctx).ExecContext(ctx, u.Q.Add, k.Day, counts[k], k.KeyID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("count key requests: %w", err)
	}
	return nil
}

// Daily lists the workspace's request counts for the days [from, to], by key then day.
func (u *Usage) Daily(ctx context.Context, workspaceID, from, to string) ([]query.RequestDay, error) {
	var out []query.RequestDay
	if err := u.DB.Read(ctx).SelectContext(ctx, &out, u.Q.Counts, workspaceID, from, to); err != nil {
		return nil, fmt.Errorf("key requests: %w", err)
	}
	return out, nil
}
