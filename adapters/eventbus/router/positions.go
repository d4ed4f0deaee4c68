package router

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// Positions answers where consumer groups stand in the stream, and moves one back to
// the start (a projection rebuild). A consumer has one position per partition of the
// layout (Part.Group()); it is caught up when every partition is.
type Positions struct {
	db                   *sqldb.DB
	parts                int
	rewind, forget, list string
	first                string
	// broker, when set, is the broker transport's CaughtUp (UseBroker).
	broker func(ctx context.Context, consumer string, part int) (bool, error)
}

// NewPositions prepares the statements of db's dialect for a layout of parts partitions.
func NewPositions(db *sqldb.DB, parts eventbus.Partitions) *Positions {
	p := &Positions{db: db, parts: max(int(parts), 1),
		forget: db.Rebind(`DELETE FROM event_processed WHERE consumer = ?`),
		list:   `SELECT consumer_group FROM watermill_offsets_events ORDER BY consumer_group`,
		first:  `SELECT payload FROM watermill_events ORDER BY "offset" LIMIT 1`,
		// Every partition of every layout: the consumer's name, and "name/pXofN".
		rewind: db.Rebind(`UPDATE watermill_offsets_events SET offset_acked = 0 WHERE consumer_group = ? OR consumer_group LIKE ?`),
	}
	if db.Dialect == sqldb.Postgres {
		p.rewind = `UPDATE watermill_offsets_events SET offset_acked = 0, last_processed_transaction_id = '0'::xid8
			WHERE consumer_group = $1 OR consumer_group LIKE $2`
		p.first = `SELECT payload FROM watermill_events ORDER BY transaction_id, "offset" LIMIT 1`
	}
	return p
}

// behindQuery tells whether events of partition part of parts lie beyond group $1's position.
func (p *Positions) behindQuery(parts, part int) string {
	if p.db.Dialect == sqldb.Postgres {
		// Groups advance in (transaction_id, offset) order, the outbox's primary key. A group
		// without a row yet (never subscribed) is behind any event. The ORDER BY ... LIMIT 1
		// inside keeps the seek on the primary key (partitioned: on the layout index, whatever
		// the statistics say; schema.PartitionBeyond): as a bare EXISTS the planner expects a third
		// of the outbox to match and scans it from the start (75 ms at a million rows, on
		// every subscriber wakeup).
		beyond, order := schema.PartitionBeyond(parts, part,
			`COALESCE((SELECT last_processed_transaction_id FROM watermill_offsets_events WHERE consumer_group = $1), '0'::xid8)`,
			`COALESCE((SELECT offset_acked FROM watermill_offsets_events WHERE consumer_group = $1), 0)`)
		return `SELECT EXISTS (SELECT 1 FROM (SELECT 1 FROM watermill_events WHERE ` + beyond + `
			ORDER BY ` + order + ` LIMIT 1) next)`
	}
	return `SELECT EXISTS (SELECT 1 FROM watermill_events WHERE ` + schema.PartitionFilter(parts, part) + `"offset" >
		COALESCE((SELECT offset_acked FROM watermill_offsets_events WHERE consumer_group = ?), 0))`
}

// CaughtUp tells whether consumer has consumed every event committed so far, in every
// partition of the layout.
func (p *Positions) CaughtUp(ctx context.Context, consumer string) (bool, error) {
	for part := range p.parts {
		ok, err := p.consumerCaughtUp(ctx, consumer, part)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// WorkspaceCaughtUp tells whether consumer has consumed every event committed so far in
// the workspace's partition (so every event of the workspace).
func (p *Positions) WorkspaceCaughtUp(ctx context.Context, consumer, workspaceID string) (bool, error) {
	return p.consumerCaughtUp(ctx, consumer, events.PartitionOf(workspaceID, p.parts))
}

// consumerCaughtUp answers for consumer's partition part on the transport in use: with a
// broker, the forwarder must be at the outbox head and the broker's consumer of the
// partition done; otherwise the part's outbox position must be.
func (p *Positions) consumerCaughtUp(ctx context.Context, consumer string, part int) (bool, error) {
	if p.broker == nil {
		return p.PartCaughtUp(ctx, consumer, part, p.parts)
	}
	if ok, err := p.PartCaughtUp(ctx, eventbus.ForwarderGroup, 0, 1); err != nil || !ok {
		return false, err
	}
	return p.broker(ctx, consumer, part)
}

// PartCaughtUp tells whether consumer's partition part of parts is at the outbox head.
func (p *Positions) PartCaughtUp(ctx context.Context, consumer string, part, parts int) (bool, error) {
	var behind bool
	group := eventbus.PartGroup(consumer, part, parts)
	if err := p.db.Read(ctx).GetContext(ctx, &behind, p.behindQuery(parts, part), group); err != nil {
		return false, fmt.Errorf("position of %s: %w", group, err)
	}
	return !behind, nil
}

// Groups lists the consumer groups that have subscribed at least once.
func (p *Positions) Groups(ctx context.Context) ([]string, error) {
	var gs []string
	if err := p.db.Read(ctx).SelectContext(ctx, &gs, p.list); err != nil {
		return nil, fmt.Errorf("consumer groups: %w", err)
	}
	return gs, nil
}

// Rewind moves every partition of group back to the start of the outbox and forgets which events it
// applied, in the transaction of ctx: the running subscriber delivers the whole stream
// again on its next poll. On PostgreSQL the update waits for the group's batch in flight
// (which holds the offsets row) and then holds the row, so call it before touching the
// group's read model in the same transaction.
func (p *Positions) Rewind(ctx context.Context, group string) error {
	if err := lockConsumer(ctx, p.db, group, true); err != nil {
		return err
	}
	if _, err := p.db.Write(ctx).ExecContext(ctx, p.rewind, group, group+"/p%"); err != nil {
		return fmt.Errorf("rewind %s: %w", group, err)
	}
	if _, err := p.db.Write(ctx).ExecContext(ctx, p.forget, group); err != nil {
		return fmt.Errorf("forget what %s applied: %w", group, err)
	}
	if p.db.Dialect == sqldb.Postgres {
		// On commit, every instance's subscribers poll again (a caught-up subscriber would
		// otherwise notice the rewind only at its next safety check, within a second).
		if _, err := p.db.Write(ctx).ExecContext(ctx, `SELECT pg_notify($1, $2)`, wakeup.NotifyChannel, wakeup.Notification("", nil)); err != nil {
			return fmt.Errorf("rewind %s: notify: %w", group, err)
		}
	}
	return nil
}

// FirstEventAt returns the time of the oldest event left in the outbox; ok is false
// when the outbox is empty.
func (p *Positions) FirstEventAt(ctx context.Context) (at time.Time, ok bool, err error) {
	var payload []byte
	err = p.db.Read(ctx).GetContext(ctx, &payload, p.first)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, fmt.Errorf("oldest outbox event: %w", err)
	}
	var ev struct {
		CreatedAt time.Time `json:"created_at"`
	}
	if err := json.Unmarshal(payload, &ev); err != nil {
		return time.Time{}, false, fmt.Errorf("decode oldest outbox event: %w", err)
	}
	return ev.CreatedAt.UTC(), true, nil
}

// UseBroker makes CaughtUp and WorkspaceCaughtUp answer for a broker transport: a
// consumer's partition is caught up when the forwarder has moved every outbox event to the
// broker (its SQL position) and caughtUp, the broker's view of that partition of the
// consumer, says it applied all of them.
func (p *Positions) UseBroker(caughtUp func(ctx context.Context, consumer string, part int) (bool, error)) {
	p.broker = caughtUp
}

// PartsBehind tells, for each part, whether events lie beyond its position (PostgreSQL),
// in one statement: one behindQuery per part, side by side.
func (p *Positions) PartsBehind(ctx context.Context, parts []eventbus.Part) ([]bool, error) {
	cols := make([]string, len(parts))
	args := make([]any, len(parts))
	out := make([]bool, len(parts))
	dest := make([]any, len(parts))
	for i, part := range parts {
		cols[i] = "(" + strings.ReplaceAll(p.behindQuery(part.Parts, part.Part), "$1", fmt.Sprintf("$%d", i+1)) + ")"
		args[i] = part.Group()
		dest[i] = &out[i]
	}
	if err := p.db.Read(ctx).QueryRowxContext(ctx, "SELECT "+strings.Join(cols, ", "), args...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("positions of %d parts: %w", len(parts), err)
	}
	return out, nil
}
