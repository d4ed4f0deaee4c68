package feed

import (
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/creatorapi/creatorapi/application/feed/query"
)

// Tail is the stream's end now: on PostgreSQL every transaction id assigned so far lies
// below the snapshot's xmax, so an event whose transaction wrote its outbox row before
// this call is at or before the answer; on SQLite (one writer) the highest offset. A
// reader that reads until its horizon reaches Tail has seen every such event (webhook
// backfills, docs/webhook-receivers.md).
func (l *Log) Tail(ctx context.Context) (query.Position, error) {
	stmt := `SELECT CAST(COALESCE(MAX("offset"), 0) AS TEXT) FROM watermill_events`
	if l.postgres {
		stmt = `SELECT pg_snapshot_xmax(pg_current_snapshot())::text`
	}
	var s string
	if err := l.db.Read(ctx).GetContext(ctx, &s, stmt); err != nil {
		return query.Position{}, fmt.Errorf("stream tail: %w", err)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return query.Position{}, fmt.Errorf("stream tail %q: %w", s, err)
	}
	if l.postgres {
		return query.Position{Tx: n - 1, Offset: math.MaxInt64}, nil // every transaction below xmax
	}
	return query.Position{Offset: int64(n)}, nil
}
