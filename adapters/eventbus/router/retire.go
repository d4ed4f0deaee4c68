package router

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Retire ends the consumer group of c once c runs inline (events.Consumer.Inline, in the
// publishing transaction): in one transaction it applies to c what the group had not
// consumed (the outbox after the laggard of its positions; the ledger skips what some
// partition applied beyond it), then forgets the group's positions and leases, so that
// retention no longer waits for it. Events published before an upgrade made c inline are
// so applied once, and none is left behind. It reports how many events it applied. A group
// without a position (a new database, retired before, or a broker transport's, whose
// positions are the broker's) costs one read.
func (l *Ledger) Retire(ctx context.Context, c events.Consumer) (int, error) {
	list := schema.PositionsQuery(l.db)
	var rows []schema.Position
	if err := l.db.Read(ctx).SelectContext(ctx, &rows, list, c.Name, c.Name+"/p%"); err != nil {
		return 0, fmt.Errorf("retire %s: positions: %w", c.Name, err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	applied := 0
	err := l.db.WithinTx(ctx, func(ctx context.Context) error {
		applied = 0
		// Waits for a batch of the group in flight (an instance of the version before).
		if err := lockConsumer(ctx, l.db, c.Name, true); err != nil {
			return err
		}
		var held []schema.Position
		if err := l.db.Write(ctx).SelectContext(ctx, &held, list+l.forUpdate(), c.Name, c.Name+"/p%"); err != nil {
			return fmt.Errorf("positions: %w", err)
		}
		if len(held) == 0 {
			return nil // another instance retired it meanwhile
		}
		err := l.applyFrom(ctx, c, schema.LaggardOf(held), func(_ events.Envelope, ok bool) {
			if ok {
				applied++
			}
		})
		if err != nil {
			return err
		}
		q := l.db.Write(ctx)
		if _, err := q.ExecContext(ctx, l.db.Rebind(`DELETE FROM watermill_offsets_events WHERE consumer_group = ? OR consumer_group LIKE ?`), c.Name, c.Name+"/p%"); err != nil {
			return fmt.Errorf("forget the positions: %w", err)
		}
		if _, err := q.ExecContext(ctx, l.db.Rebind(`DELETE FROM event_leases WHERE consumer = ?`), c.Name); err != nil {
			return fmt.Errorf("forget the leases: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("retire %s: %w", c.Name, err)
	}
	return applied, nil
}

// forUpdate holds the rows read until the transaction ends (PostgreSQL; SQLite's writer
// is single).
func (l *Ledger) forUpdate() string {
	if l.db.Dialect == sqldb.Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// RetireInline retires the group of every inline consumer among cs, before the router
// starts: what a group left unconsumed when an upgrade made its consumer inline (the
// webhook fan-out) is applied, and the group forgotten.
func (l *Ledger) RetireInline(ctx context.Context, cs []events.Consumer, logger *slog.Logger) error {
	for _, c := range cs {
		if !c.Inline {
			continue
		}
		n, err := l.Retire(ctx, c)
		if err != nil {
			return err
		}
		if n > 0 {
			logger.Info("events: retired the consumer group of an inline consumer", "consumer", c.Name, "applied", n)
		}
	}
	return nil
}
