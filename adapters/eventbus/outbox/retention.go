package outbox

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
)

// retentionChunk bounds one delete, so that pruning a large backlog never holds the
// (SQLite: only) writer for long.
const retentionChunk = 1000

// Retention deletes outbox rows older than Keep that every consumer group has consumed,
// and the processed-event markers of the same age. Ages of outbox rows are by the
// database clock (their created_at default). With no consumer group yet, nothing goes.
// With partitions, a row is consumed when every group's position in the row's partition
// is past it (an idle partition's position stays at its last event and must not hold the
// others back); a position of another layout, or of a group without partitions, bounds
// every partition.
type Retention struct {
	db                       *sqldb.DB
	clock                    platform.Clock
	keep                     time.Duration
	parts                    int
	positions, marker, prune string
}

// NewRetention prepares the statements of db's dialect for a layout of parts partitions.
func NewRetention(db *sqldb.DB, clock platform.Clock, keep time.Duration, parts eventbus.Partitions) *Retention {
	r := &Retention{db: db, clock: clock, keep: keep, parts: max(int(parts), 1),
		marker:    db.Rebind(`DELETE FROM event_processed WHERE processed_at < ?`),
		positions: `SELECT consumer_group, '' AS tx, COALESCE(offset_acked, 0) AS off FROM watermill_offsets_events`,
	}
	if db.Dialect == sqldb.Postgres {
		r.positions = `SELECT consumer_group, last_processed_transaction_id::text AS tx, COALESCE(offset_acked, 0) AS off
			FROM watermill_offsets_events`
		r.prune = `DELETE FROM watermill_events WHERE (transaction_id, "offset") IN (
			SELECT transaction_id, "offset" FROM watermill_events
			WHERE %s created_at < LOCALTIMESTAMP - make_interval(secs => $1)
			AND (transaction_id < $2::xid8 OR (transaction_id = $2::xid8 AND "offset" <= $3))
			LIMIT ` + fmt.Sprint(retentionChunk) + `)`
	} else {
		r.prune = `DELETE FROM watermill_events WHERE "offset" IN (
			SELECT "offset" FROM watermill_events
			WHERE %s created_at < strftime('%%Y-%%m-%%dT%%H:%%M:%%fZ', 'now', '-' || ? || ' seconds')
			AND "offset" <= ? ORDER BY "offset" LIMIT ` + fmt.Sprint(retentionChunk) + `)`
	}
	return r
}

// bounds returns, per partition of the layout, the laggard position of every group there
// (ok false: no position bounds that partition, so nothing of it goes).
func (r *Retention) bounds(ctx context.Context) ([]schema.Position, []bool, error) {
	var rows []schema.Position
	if err := r.db.Writer.SelectContext(ctx, &rows, r.positions); err != nil {
		return nil, nil, fmt.Errorf("retention: consumed positions: %w", err)
	}
	bound := make([]schema.Position, r.parts)
	ok := make([]bool, r.parts)
	lower := func(p int, pos schema.Position) {
		if !ok[p] || pos.Before(bound[p]) {
			bound[p], ok[p] = pos, true
		}
	}
	for _, row := range rows {
		if part, parts, partitioned := eventbus.PartOfGroup(row.Group); partitioned && parts == r.parts {
			lower(part, row)
			continue
		}
		for p := range r.parts { // another layout, or the whole stream: it bounds every partition
			lower(p, row)
		}
	}
	return bound, ok, nil
}

// Run prunes once and reports how many outbox rows it deleted.
func (r *Retention) Run(ctx context.Context) (int64, error) {
	bound, ok, err := r.bounds(ctx)
	if err != nil {
		return 0, err
	}
	secs := int64(r.keep / time.Second)
	var total int64
	for p := range r.parts {
		if !ok[p] {
			continue
		}
		stmt := r.db.Rebind(fmt.Sprintf(r.prune, schema.PartitionFilter(r.parts, p)))
		for {
			args := []any{secs, bound[p].Off}
			if r.db.Dialect == sqldb.Postgres {
				args = []any{secs, bound[p].Tx, bound[p].Off}
			}
			res, err := r.db.Writer.ExecContext(ctx, stmt, args...)
			if err != nil {
				return total, fmt.Errorf("retention: delete outbox rows: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return total, fmt.Errorf("retention: %w", err)
			}
			total += n
			if n < retentionChunk {
				break
			}
		}
	}
	if _, err := r.db.Writer.ExecContext(ctx, r.marker, r.clock.Now().UTC().Add(-r.keep)); err != nil {
		return total, fmt.Errorf("retention: delete processed markers: %w", err)
	}
	return total, nil
}
