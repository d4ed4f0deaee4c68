package router

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// rebuildPage bounds the events read at once (a transaction cannot read and write on
// one connection at the same time, so the outbox is read in pages).
const rebuildPage = 500

// Rebuilt is the outcome of a rebuild.
type Rebuilt struct {
	Consumer     string     `json:"consumer"`
	Events       int        `json:"events"`
	Applied      int        `json:"applied"`
	FirstEventAt *time.Time `json:"firstEventAt"`
}

type outboxRow struct {
	Tx      string `db:"tx"`
	Offset  int64  `db:"off"`
	Payload []byte `db:"payload"`
}

// Rebuild replays the whole outbox into consumer c, in one transaction: it rewinds the
// group to the start and forgets its ledger (Positions.Rewind), lets reset empty the
// read model, then applies every event in stream order, marking each in the ledger. A
// running subscriber of the group then redelivers the stream from the start and skips
// what is marked, so events committed during the rebuild are applied once, by it. Any
// failure rolls everything back. Only what retention left in the outbox is replayed.
func (l *Ledger) Rebuild(ctx context.Context, pos *Positions, c events.Consumer, reset func(ctx context.Context) error) (Rebuilt, error) {
	out := Rebuilt{Consumer: c.Name}
	err := l.db.WithinTx(ctx, func(ctx context.Context) error {
		out.Events, out.Applied, out.FirstEventAt = 0, 0, nil
		if err := pos.Rewind(ctx, c.Name); err != nil {
			return err
		}
		if err := reset(ctx); err != nil {
			return err
		}
		err := l.applyFrom(ctx, c, schema.Position{Tx: "0"}, func(ev events.Envelope, applied bool) {
			if out.FirstEventAt == nil {
				at := ev.CreatedAt.UTC()
				out.FirstEventAt = &at
			}
			out.Events++
			if applied {
				out.Applied++
			}
		})
		if err != nil {
			return fmt.Errorf("rebuild %w", err)
		}
		return nil
	})
	if err != nil {
		return Rebuilt{}, err
	}
	return out, nil
}

// applyFrom applies to c, in the transaction of ctx and in stream order, every event of
// the outbox after from that c handles and has not applied (its ledger), and tells seen
// of each event read.
func (l *Ledger) applyFrom(ctx context.Context, c events.Consumer, from schema.Position, seen func(ev events.Envelope, applied bool)) error {
	page := l.db.Rebind(`SELECT '' AS tx, "offset" AS off, payload FROM watermill_events WHERE "offset" > ? ORDER BY "offset" LIMIT ?`)
	if l.db.Dialect == sqldb.Postgres {
		page = `SELECT transaction_id::text AS tx, "offset" AS off, payload FROM watermill_events
			WHERE (transaction_id, "offset") > ($1::xid8, $2) ORDER BY transaction_id, "offset" LIMIT $3`
	}
	last := outboxRow{Tx: from.Tx, Offset: from.Off}
	if last.Tx == "" {
		last.Tx = "0"
	}
	for {
		var rows []outboxRow
		args := []any{last.Offset, rebuildPage}
		if l.db.Dialect == sqldb.Postgres {
			args = []any{last.Tx, last.Offset, rebuildPage}
		}
		if err := l.db.Write(ctx).SelectContext(ctx, &rows, page, args...); err != nil {
			return fmt.Errorf("read outbox: %w", err)
		}
		for _, r := range rows {
			var ev events.Envelope
			if err := json.Unmarshal(r.Payload, &ev); err != nil {
				return fmt.Errorf("decode outbox event at offset %d: %w", r.Offset, err)
			}
			applied := false
			if c.Handles(ev.Type) {
				var err error
				if applied, err = l.applyOnce(ctx, c, ev); err != nil {
					return fmt.Errorf("%s: event %s: %w", c.Name, ev.ID, err)
				}
			}
			seen(ev, applied)
		}
		// The consumer's deferred writes (sqldb.Deferred) are written per page, not
		// held for the whole stream.
		if err := sqldb.FlushDeferred(ctx); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if len(rows) < rebuildPage {
			return nil
		}
		last = rows[len(rows)-1]
	}
}
