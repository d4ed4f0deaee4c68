package lease

import (
	"context"
	"fmt"
	"strconv"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// layoutIndex names the outbox index of a layout of parts partitions.
func layoutIndex(parts int) string { return fmt.Sprintf("watermill_events_part_%d", parts) }

// EnsureLayoutIndex creates the outbox index that partition polls of a layout of parts
// seek on: (partition_key % parts, transaction_id, offset) on PostgreSQL, (partition_key %
// parts, offset) on SQLite. It exists once per count, created by the first instance that
// runs the count. On PostgreSQL the build holds outbox writes for its duration (a
// self-exclusive lock, so instances starting together build it once): seconds for a
// million retained events, once per count change.
func EnsureLayoutIndex(ctx context.Context, db *sqldb.DB, parts int) error {
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

// SeedPositions gives consumer's partitions of a new layout of parts their first
// positions: the laggard of its positions in the layout it had before (the one-partition
// layout is the consumer's plain name), and then forgets those. Everything before the
// laggard was consumed in every old partition; what lies after it and was consumed by
// some old partitions comes again, and the ledger skips it (each workspace's events were
// consumed in order, so what is left of a workspace follows what was applied). Without
// that, a new position would start at the outbox's start and replay the retained stream.
// It runs when an instance wins a pair of the layout, which the lease table grants only
// once no pair of the consumer's old layout is held: nothing moves the old positions.
// A consumer with no old position starts at the beginning, as a new consumer does.
func SeedPositions(ctx context.Context, db *sqldb.DB, consumer string, parts int) error {
	list := schema.PositionsQuery(db)
	insert := db.Rebind(`INSERT INTO watermill_offsets_events (consumer_group, offset_acked) VALUES (?, ?) ON CONFLICT (consumer_group) DO NOTHING`)
	if db.Dialect == sqldb.Postgres {
		insert = `INSERT INTO watermill_offsets_events (consumer_group, offset_acked, last_processed_transaction_id)
			VALUES ($1, $2, $3::xid8) ON CONFLICT (consumer_group) DO NOTHING`
	}
	drop := db.Rebind(`DELETE FROM watermill_offsets_events WHERE consumer_group = ?`)
	var rows []schema.Position
	if err := db.Read(ctx).SelectContext(ctx, &rows, list, consumer, consumer+"/p%"); err != nil {
		return fmt.Errorf("positions of %s: %w", consumer, err)
	}
	have := map[int]bool{}
	var old []schema.Position
	for _, r := range rows {
		part, n, ok := eventbus.ParsePartGroup(r.Group, consumer)
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
	laggard := schema.LaggardOf(old)
	return db.WithinTx(ctx, func(ctx context.Context) error {
		for p := range parts {
			if have[p] {
				continue
			}
			args := []any{eventbus.PartGroup(consumer, p, parts), laggard.Off}
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
