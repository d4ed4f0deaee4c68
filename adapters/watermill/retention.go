package watermill

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/platform"
)

// retentionChunk bounds one delete, so that pruning a large backlog never holds the
// (SQLite: only) writer for long.
const retentionChunk = 1000

// Retention deletes outbox rows older than Keep that every consumer group has consumed,
// and the processed-event markers of the same age. Ages of outbox rows are by the
// database clock (their created_at default). With no consumer group yet, nothing goes.
type Retention struct {
	db                      *sqldb.DB
	clock                   platform.Clock
	keep                    time.Duration
	position, prune, marker string
}

// NewRetention prepares the statements of db's dialect.
func NewRetention(db *sqldb.DB, clock platform.Clock, keep time.Duration) *Retention {
	r := &Retention{db: db, clock: clock, keep: keep,
		marker: db.Rebind(`DELETE FROM event_processed WHERE processed_at < ?`)}
	if db.Dialect == sqldb.Postgres {
		// Groups advance in (transaction_id, offset) order: the laggard's position bounds what is consumed.
		r.position = `SELECT last_processed_transaction_id::text AS tx, COALESCE(offset_acked, 0) AS off
			FROM watermill_offsets_events ORDER BY last_processed_transaction_id, COALESCE(offset_acked, 0) LIMIT 1`
		r.prune = `DELETE FROM watermill_events WHERE (transaction_id, "offset") IN (
			SELECT transaction_id, "offset" FROM watermill_events
			WHERE created_at < LOCALTIMESTAMP - make_interval(secs => $1)
			AND (transaction_id < $2::xid8 OR (transaction_id = $2::xid8 AND "offset" <= $3))
			LIMIT ` + fmt.Sprint(retentionChunk) + `)`
	} else {
		r.position = `SELECT '' AS tx, offset_acked AS off FROM watermill_offsets_events ORDER BY offset_acked LIMIT 1`
		r.prune = `DELETE FROM watermill_events WHERE "offset" IN (
			SELECT "offset" FROM watermill_events
			WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || ? || ' seconds')
			AND "offset" <= ? ORDER BY "offset" LIMIT ` + fmt.Sprint(retentionChunk) + `)`
	}
	return r
}

// Run prunes once and reports how many outbox rows it deleted.
func (r *Retention) Run(ctx context.Context) (int64, error) {
	var pos struct {
		Tx  string `db:"tx"`
		Off int64  `db:"off"`
	}
	if err := r.db.Writer.GetContext(ctx, &pos, r.position); errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	} else if err != nil {
		return 0, fmt.Errorf("retention: consumed position: %w", err)
	}
	secs := int64(r.keep / time.Second)
	var total int64
	for {
		args := []any{secs, pos.Off}
		if r.db.Dialect == sqldb.Postgres {
			args = []any{secs, pos.Tx, pos.Off}
		}
		res, err := r.db.Writer.ExecContext(ctx, r.prune, args...)
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
	if _, err := r.db.Writer.ExecContext(ctx, r.marker, r.clock.Now().UTC().Add(-r.keep)); err != nil {
		return total, fmt.Errorf("retention: delete processed markers: %w", err)
	}
	return total, nil
}
