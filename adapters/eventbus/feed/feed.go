package feed

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/feed/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Log reads the outbox table watermill_events (migration 00021 adds the feed's index).
type Log struct {
	db                *sqldb.DB
	read, since, byID string // read has two %s: the types' placeholders and the since condition
	postgres          bool
}

// NewLog prepares the statements of db's dialect.
func NewLog(db *sqldb.DB) *Log {
	l := &Log{db: db, postgres: db.Dialect == sqldb.Postgres}
	if l.postgres {
		// One range of watermill_events_feed: (key, tx, offset) beyond the position, up to
		// the key's last entry, and below the snapshot's xmin. held_back: committed rows of
		// the key at or above xmin (they wait for an older open transaction).
		l.read = `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin)
			SELECT h.xmin::text AS horizon,
				EXISTS (SELECT 1 FROM watermill_events w
					WHERE (w.partition_key, w.transaction_id, w."offset") > (?, ?::xid8, ?) AND w.partition_key <= ?
					AND w.transaction_id >= h.xmin) AS held_back,
				e.transaction_id::text AS tx, e."offset" AS off, e.payload::text AS payload
			FROM h LEFT JOIN LATERAL (
				SELECT transaction_id, "offset", payload FROM watermill_events
				WHERE (partition_key, transaction_id, "offset") > (?, ?::xid8, ?) AND partition_key <= ?
				AND transaction_id < h.xmin
				AND metadata->>'workspace_id' = ? AND metadata->>'type' IN (%s)%s
				ORDER BY partition_key, transaction_id, "offset"
				LIMIT ?
			) e ON true
			ORDER BY e.transaction_id, e."offset"`
		l.since = ` AND (payload->>'created_at')::timestamptz >= ?`
		l.byID = db.Rebind(`SELECT payload::text FROM watermill_events WHERE uuid = ?`)
	} else {
		// One writer: what a statement sees is a prefix of the stream, up to MAX(offset).
		l.read = `WITH h AS (SELECT COALESCE(MAX("offset"), 0) AS top FROM watermill_events)
			SELECT h.top AS horizon, 0 AS held_back, '' AS tx, e.off AS off, e.payload AS payload
			FROM h LEFT JOIN (
				SELECT "offset" AS off, CAST(payload AS TEXT) AS payload FROM watermill_events
				WHERE partition_key = ? AND "offset" > ? AND "offset" <= (SELECT top FROM h)
				AND json_extract(metadata, '$.workspace_id') = ? AND json_extract(metadata, '$.type') IN (%s)%s
				ORDER BY "offset"
				LIMIT ?
			) e ON 1 = 1
			ORDER BY e.off`
		// created_at is RFC 3339 in UTC with 0 to 9 fractional digits: compared as the
		// seconds and the fraction padded to nine digits (sinceKey).
		l.since = ` AND substr(json_extract(CAST(payload AS TEXT), '$.created_at'), 1, 19) ||
				CASE WHEN substr(json_extract(CAST(payload AS TEXT), '$.created_at'), 20, 1) = '.'
				THEN substr(substr(json_extract(CAST(payload AS TEXT), '$.created_at'), 21,
					length(json_extract(CAST(payload AS TEXT), '$.created_at')) - 21) || '000000000', 1, 9)
				ELSE '000000000' END >= ?`
		l.byID = db.Rebind(`SELECT CAST(payload AS TEXT) FROM watermill_events WHERE uuid = ?`)
	}
	return l
}

type readRow struct {
	Horizon  string         `db:"horizon"`
	HeldBack bool           `db:"held_back"`
	Tx       sql.NullString `db:"tx"`
	Off      sql.NullInt64  `db:"off"`
	Payload  sql.NullString `db:"payload"`
}

// Read returns up to r.Limit events after r.After (see query.Log).
func (l *Log) Read(ctx context.Context, r query.Read) (query.Batch, error) {
	stmt, args := l.statement(r)
	var rows []readRow
	if err := l.db.Read(ctx).SelectContext(ctx, &rows, stmt, args...); err != nil {
		return query.Batch{}, fmt.Errorf("feed read: %w", err)
	}
	if len(rows) == 0 { // the LEFT JOIN always yields the horizon's row
		return query.Batch{}, errors.New("feed read: no horizon row")
	}
	b := query.Batch{HeldBack: rows[0].HeldBack}
	horizon, err := l.horizon(rows[0].Horizon)
	if err != nil {
		return query.Batch{}, err
	}
	b.Horizon = horizon
	for _, row := range rows {
		if !row.Off.Valid {
			continue // no event: the horizon's row alone
		}
		if len(b.Items) == r.Limit {
			b.More = true
			break
		}
		it := query.Item{Position: query.Position{Offset: row.Off.Int64}}
		if l.postgres {
			if it.Position.Tx, err = strconv.ParseUint(row.Tx.String, 10, 64); err != nil {
				return query.Batch{}, fmt.Errorf("feed read: transaction id %q: %w", row.Tx.String, err)
			}
		}
		if err := json.Unmarshal([]byte(row.Payload.String), &it.Envelope); err != nil {
			return query.Batch{}, fmt.Errorf("feed read: event at %d: %w", row.Off.Int64, err)
		}
		b.Items = append(b.Items, it)
	}
	if n := len(b.Items); n > 0 && b.Horizon.Before(b.Items[n-1].Position) {
		b.Horizon = b.Items[n-1].Position // cannot happen; never move a reader back
	}
	return b, nil
}

// horizon turns the statement's horizon into a position: on PostgreSQL everything below
// xmin (xmin-1 and any offset), on SQLite the highest offset.
func (l *Log) horizon(s string) (query.Position, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return query.Position{}, fmt.Errorf("feed read: horizon %q: %w", s, err)
	}
	if l.postgres {
		return query.Position{Tx: n - 1, Offset: math.MaxInt64}, nil
	}
	return query.Position{Offset: int64(n)}, nil
}

func (l *Log) statement(r query.Read) (string, []any) {
	key := int64(events.PartitionKey(r.WorkspaceID))
	types := strings.TrimSuffix(strings.Repeat("?,", len(r.Types)), ",")
	since := ""
	var args []any
	if l.postgres {
		tx := strconv.FormatUint(r.After.Tx, 10)
		args = append(args, key, tx, r.After.Offset, key, key, tx, r.After.Offset, key, r.WorkspaceID)
	} else {
		args = append(args, key, r.After.Offset, r.WorkspaceID)
	}
	for _, t := range r.Types {
		args = append(args, string(t))
	}
	if r.Since != nil {
		since = l.since
		if l.postgres {
			args = append(args, r.Since.UTC())
		} else {
			args = append(args, sinceKey(*r.Since))
		}
	}
	args = append(args, r.Limit+1)
	return l.db.Rebind(fmt.Sprintf(l.read, types, since)), args
}

// sinceKey is t as SQLite's since condition compares created_at: seconds, then the
// fraction in nine digits.
func sinceKey(t time.Time) string {
	t = t.UTC()
	return t.Format("2006-01-02T15:04:05") + fmt.Sprintf("%09d", t.Nanosecond())
}

// Event returns one event by id; kernel.NotFound when there is none (the caller checks
// its workspace).
func (l *Log) Event(ctx context.Context, workspaceID, eventID string) (events.Envelope, error) {
	var payload string
	err := l.db.Read(ctx).GetContext(ctx, &payload, l.byID, eventID)
	if errors.Is(err, sql.ErrNoRows) {
		return events.Envelope{}, kernel.NotFound("no event %s in this workspace", eventID)
	}
	if err != nil {
		return events.Envelope{}, fmt.Errorf("feed event: %w", err)
	}
	var env events.Envelope
	if err := json.Unmarshal([]byte(payload), &env); err != nil {
		return events.Envelope{}, fmt.Errorf("feed event %s: %w", eventID, err)
	}
	return env, nil
}
