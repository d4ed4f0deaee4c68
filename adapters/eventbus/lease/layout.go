package watermill

import (
	"context"
	"fmt"
	"strconv"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// layoutIndex names the outbox index of a layout of parts partitions.
func layoutIndex(parts int) string { return fmt.Sprintf("watermill_events_part_%d", parts) }

// ensureLayoutIndex creates the outbox index that partition polls of a layout of parts
// seek on: (partition_key % parts, transaction_id, offset) on PostgreSQL, (partition_key %
// parts, offset) on SQLite. It exists once per count, created by the first instance that
// runs the count. On PostgreSQL the build holds outbox writes for its duration (a
// self-exclusive lock, so instances starting together build it once): seconds for a
// million retained events, once per count change.
func ensureLayoutIndex(ctx context.Context, db *sqldb.DB, parts int) error {
	if parts <= 1 {
		return nil // one partition polls the primary key
	}
	name := layoutIndex(parts)
	if db.Dialect != sqldb.Postgres {
		q := `CREATE INDEX IF NOT EXISTS ` + name + ` ON watermill_events ((partition_key % ` + strconv.Itoa(parts) + `), "offset")`
		if _, err := db.Writer.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("outbox index %s: %w", name, err)
		}
		return nil
	}
	var exists bool
	if err := db.Writer.GetContext(ctx, &exists, `SELECT to_regclass($1) IS NOT NULL`, name); err != nil {
		return fmt.Errorf("outbox index %s: %w", name, err)
	}
	if exists {
		return nil
	}
	return db.WithinTx(ctx, func(ctx context.Context) error {
		q := db.Write(ctx)
		if _, err := q.ExecContext(ctx, `LOCK TABLE watermill_events IN SHARE ROW EXCLUSIVE MODE`); err != nil {
			return fmt.Errorf("outbox index %s: lock: %w", name, err)
		}
		stmt := `CREATE INDEX IF NOT EXISTS ` + name + ` ON watermill_events ((partition_key % ` + strconv.Itoa(parts) + `), transaction_id, "offset")`
		if _, err := q.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("outbox index %s: %w", name, err)
		}
		return nil
	})
}

// position is one row of watermill_offsets_events.
type position struct {
	Group string `db:"consumer_group"`
	Tx    string `db:"tx"` // PostgreSQL's last_processed_transaction_id; '' on SQLite
	Off   int64  `db:"off"`
}

// before orders positions in stream order.
func (p position) before(q position) bool {
	a, _ := strconv.ParseUint(p.Tx, 10, 64)
	b, _ := strconv.ParseUint(q.Tx, 10, 64)
	if a != b {
		return a < b
	}
	return p.Off < q.Off
}

// laggardOf returns the position of ps that comes first in the stream (ps not empty).
func laggardOf(ps []position) position {
	first := ps[0]
	for _, p := range ps[1:] {
		if p.before(first) {
			first = p
		}
	}
	return first
}

// positionsQuery lists a consumer's positions in every layout ($1 its name, $2 its name
// followed by /p%).
func positionsQuery(db *sqldb.DB) string {
	if db.Dialect == sqldb.Postgres {
		return `SELECT consumer_group, last_processed_transaction_id::text AS tx, COALESCE(offset_acked, 0) AS off
			FROM watermill_offsets_events WHERE consumer_group = $1 OR consumer_group LIKE $2`
	}
	return `SELECT consumer_group, '' AS tx, COALESCE(offset_acked, 0) AS off FROM watermill_offsets_events
		WHERE consumer_group = ? OR consumer_group LIKE ?`
}

// seedPositions gives consumer's partitions of a new layout of parts their first
// positions: the laggard of its positions in the layout it had before (the one-partition
// layout is the consumer's plain name), and then forgets those. Everything before the
// laggard was consumed in every old partition; what lies after it and was consumed by
// some old partitions comes again, and the ledger skips it (each workspace's events were
// consumed in order, so what is left of a workspace follows what was applied). Without
// that, a new position would start at the outbox's start and replay the retained stream.
// It runs when an instance wins a pair of the layout, which the lease table grants only
// once no pair of the consumer's old layout is held: nothing moves the old positions.
// A consumer with no old position starts at the beginning, as a new consumer does.
func seedPositions(ctx context.Context, db *sqldb.DB, consumer string, parts int) error {
	list := positionsQuery(db)
	insert := db.Rebind(`INSERT INTO watermill_offsets_events (consumer_group, offset_acked) VALUES (?, ?) ON CONFLICT (consumer_group) DO NOTHING`)
	if db.Dialect == sqldb.Postgres {
		insert = `INSERT INTO watermill_offsets_events (consumer_group, offset_acked, last_processed_transaction_id)
			VALUES ($1, $2, $3::xid8) ON CONFLICT (consumer_group) DO NOTHING`
	}
	drop := db.Rebind(`DELETE FROM watermill_offsets_events WHERE consumer_group = ?`)
	var rows []position
	if err := db.Read(ctx).SelectContext(ctx, &rows, list, consumer, consumer+"/p%"); err != nil {
		return fmt.Errorf("positions of %s: %w", consumer, err)
	}
	have := map[int]bool{}
	var old []position
	for _, r := range rows {
		part, n, ok := parsePartGroup(r.Group, consumer)
		switch {
		case !ok:
		case n == parts:
			have[part] = true
		default:
			old = append(old, r)
		}
	}
	if len(old) == 0 {
		return nil
	}
	laggard := laggardOf(old)
	return db.WithinTx(ctx, func(ctx context.Context) error {
		for p := range parts {
			if have[p] {
				continue
			}
			args := []any{PartGroup(consumer, p, parts), laggard.Off}
			if db.Dialect == sqldb.Postgres {
				args = append(args, laggard.Tx)
			}
			if _, err := db.Write(ctx).ExecContext(ctx, insert, args...); err != nil {
				return fmt.Errorf("seed position of %s: %w", args[0], err)
			}
		}
		for _, r := range old {
			if _, err := db.Write(ctx).ExecContext(ctx, drop, r.Group); err != nil {
				return fmt.Errorf("forget position %s: %w", r.Group, err)
			}
		}
		return nil
	})
}
