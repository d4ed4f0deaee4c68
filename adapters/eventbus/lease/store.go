package lease

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Key names one (consumer group, partition) pair of a layout in event_leases.
type Key struct {
	Consumer string `db:"consumer"`
	Parts    int    `db:"parts"`
	Part     int    `db:"part"`
}

// Store keeps the deployment's layout (event_layout), the instances' heartbeats
// (event_instances) and the leases (event_leases). Times are the instances' wall clocks
// (kept in step by NTP; a lease lasts seconds, skew is milliseconds).
type Store struct {
	db                                                     *sqldb.DB
	consumers                                              string // this instance's, comma-separated
	layout, instance, renew, census, claim, free, leave    string
	forgetInstance, sweepInstances, sweepLeases, currentLy string
	// aliveRenew (PostgreSQL) is instance and renew in one statement.
	aliveRenew string
}

// NewStore prepares the statements of an instance running consumers.
func NewStore(db *sqldb.DB, consumers []string) *Store {
	skip := ""
	if db.Dialect == sqldb.Postgres {
		skip = " FOR UPDATE SKIP LOCKED" // instances claiming at once take different rows
	}
	return &Store{db: db, consumers: strings.Join(consumers, ","),
		// The instance that starts with another count changes the deployment's layout.
		layout: db.Rebind(`INSERT INTO event_layout (id, parts, changed_at) VALUES (1, ?, ?)
			ON CONFLICT (id) DO UPDATE SET parts = excluded.parts, changed_at = excluded.changed_at
			WHERE event_layout.parts <> excluded.parts`),
		currentLy: `SELECT parts FROM event_layout WHERE id = 1`,
		instance: db.Rebind(`INSERT INTO event_instances (instance, consumers, seen_at) VALUES (?, ?, ?)
			ON CONFLICT (instance) DO UPDATE SET seen_at = excluded.seen_at, consumers = excluded.consumers`),
		// Renewing a lease that expired is safe: nobody took it, or owner would differ.
		renew: db.Rebind(`UPDATE event_leases SET expires_at = ? WHERE owner = ? RETURNING consumer, parts, part`),
		aliveRenew: `WITH me AS (INSERT INTO event_instances (instance, consumers, seen_at) VALUES ($1, $2, $3)
				ON CONFLICT (instance) DO UPDATE SET seen_at = excluded.seen_at, consumers = excluded.consumers
				RETURNING instance)
			UPDATE event_leases SET expires_at = $4 WHERE owner = (SELECT instance FROM me) RETURNING consumer, parts, part`,
		// What a heartbeat learns, in one statement: the live instances' consumers
		// ('alive'), the deployment's layout ('layout'), and per live instance the live
		// pairs of that layout it holds per consumer ('held'; consumer '' when none).
		census: db.Rebind(`SELECT 'alive' AS kind, consumers AS name, '' AS instance, 0 AS n FROM event_instances WHERE seen_at >= ?
			UNION ALL SELECT 'layout', '', '', parts FROM event_layout WHERE id = 1
			UNION ALL SELECT 'held', COALESCE(l.consumer, ''), i.instance, COUNT(l.part)
			FROM event_instances i LEFT JOIN event_leases l ON l.owner = i.instance
				AND l.parts = COALESCE((SELECT parts FROM event_layout WHERE id = 1), 1) AND l.expires_at >= ?
			WHERE i.seen_at >= ? GROUP BY i.instance, l.consumer`),
		// A pair of the current layout is free, or its holder stopped renewing; and no pair of
		// the same consumer in another layout is still held (a count change waits for the old
		// layout to stop, so that one workspace's events are never consumed by two parts).
		claim: db.Rebind(`UPDATE event_leases SET owner = ?, expires_at = ? WHERE (consumer, parts, part) IN (
			SELECT l.consumer, l.parts, l.part FROM event_leases l
			WHERE l.parts = ? AND l.consumer = ? AND (l.owner = '' OR l.expires_at < ?)
			AND NOT EXISTS (SELECT 1 FROM event_leases o WHERE o.consumer = l.consumer AND o.parts <> l.parts
				AND o.owner <> '' AND o.expires_at >= ?)
			ORDER BY l.part, l.consumer LIMIT ?` + skip + `)
			RETURNING consumer, parts, part`),
		free:           db.Rebind(`UPDATE event_leases SET owner = '', expires_at = ? WHERE consumer = ? AND parts = ? AND part = ? AND owner = ?`),
		leave:          db.Rebind(`UPDATE event_leases SET owner = '', expires_at = ? WHERE owner = ?`),
		forgetInstance: db.Rebind(`DELETE FROM event_instances WHERE instance = ?`),
		sweepInstances: db.Rebind(`DELETE FROM event_instances WHERE seen_at < ?`),
		sweepLeases:    db.Rebind(`DELETE FROM event_leases WHERE parts <> ? AND (owner = '' OR expires_at < ?)`),
	}
}

// SetLayout makes parts the deployment's partition count.
func (s *Store) SetLayout(ctx context.Context, parts int, now time.Time) error {
	if _, err := s.db.Writer.ExecContext(ctx, s.layout, parts, now); err != nil {
		return fmt.Errorf("events layout: %w", err)
	}
	return nil
}

// Layout returns the deployment's partition count (1 before any instance set one).
func (s *Store) Layout(ctx context.Context) (int, error) {
	var parts int
	err := s.db.Read(ctx).GetContext(ctx, &parts, s.currentLy)
	if errors.Is(err, sql.ErrNoRows) {
		return 1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("events layout: %w", err)
	}
	return parts, nil
}

// Ensure creates the lease rows of every consumer's partitions of the layout.
func (s *Store) Ensure(ctx context.Context, consumers []string, parts int, now time.Time) error {
	rows := make([]string, 0, len(consumers)*parts)
	args := make([]any, 0, 4*len(consumers)*parts)
	for _, c := range consumers {
		for p := range parts {
			rows = append(rows, "(?, ?, ?, '', ?)")
			args = append(args, c, parts, p, now)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	q := s.db.Rebind(`INSERT INTO event_leases (consumer, parts, part, owner, expires_at) VALUES ` +
		strings.Join(rows, ", ") + ` ON CONFLICT (consumer, parts, part) DO NOTHING`)
	if _, err := s.db.Writer.ExecContext(ctx, q, args...); err != nil {
		return fmt.Errorf("event leases: %w", err)
	}
	return nil
}

// Census is what one heartbeat learns.
type Census struct {
	Alive map[string]int // per consumer, the live instances that run it (this one included)
	Parts int            // the deployment's partition count
	// Fewest is, per consumer, the fewest live pairs of the layout held by a live instance
	// that runs it (0 for one that holds none).
	Fewest map[string]int
	// Least is the fewest live pairs, all consumers together, held by a live instance.
	Least int
}

// Heartbeat says that instance is alive, extends its leases until until, and returns the
// pairs it holds and the census (instances alive since aliveSince, current layout). Two
// statements on PostgreSQL (the writes, then the census), three on SQLite.
func (s *Store) Heartbeat(ctx context.Context, instance string, now, until, aliveSince time.Time) ([]Key, Census, error) {
	var held []Key
	if s.db.Dialect == sqldb.Postgres {
		if err := s.db.Writer.SelectContext(ctx, &held, s.aliveRenew, instance, s.consumers, now, until); err != nil {
			return nil, Census{}, fmt.Errorf("event leases: heartbeat: %w", err)
		}
	} else {
		if _, err := s.db.Writer.ExecContext(ctx, s.instance, instance, s.consumers, now); err != nil {
			return nil, Census{}, fmt.Errorf("event instances: heartbeat: %w", err)
		}
		if err := s.db.Writer.SelectContext(ctx, &held, s.renew, until, instance); err != nil {
			return nil, Census{}, fmt.Errorf("event leases: renew: %w", err)
		}
	}
	var rows []struct {
		Kind     string `db:"kind"`
		Name     string `db:"name"`
		Instance string `db:"instance"`
		N        int    `db:"n"`
	}
	if err := s.db.Writer.SelectContext(ctx, &rows, s.census, aliveSince, now, aliveSince); err != nil {
		return nil, Census{}, fmt.Errorf("event instances: census: %w", err)
	}
	c := Census{Alive: map[string]int{}, Fewest: map[string]int{}, Parts: 1}
	type holding struct {
		Instance, Consumer string
		N                  int
	}
	var counts []holding
	for _, r := range rows {
		switch r.Kind {
		case "alive":
			for _, name := range strings.Split(r.Name, ",") {
				c.Alive[name]++
			}
		case "layout":
			c.Parts = r.N
		case "held":
			counts = append(counts, holding{Instance: r.Instance, Consumer: r.Name, N: r.N})
		}
	}
	seen := map[string]map[string]int{} // consumer -> instance -> pairs
	totals := map[string]int{}          // instance -> pairs
	for _, row := range counts {
		totals[row.Instance] += row.N
		if row.Consumer != "" {
			if seen[row.Consumer] == nil {
				seen[row.Consumer] = map[string]int{}
			}
			seen[row.Consumer][row.Instance] = row.N
		}
	}
	for name, alive := range c.Alive {
		fewest := 0
		if len(seen[name]) >= alive { // every live instance of name holds some
			fewest = -1
			for _, n := range seen[name] {
				if fewest < 0 || n < fewest {
					fewest = n
				}
			}
		}
		c.Fewest[name] = fewest
	}
	c.Least = -1
	for _, n := range totals {
		if c.Least < 0 || n < c.Least {
			c.Least = n
		}
	}
	return held, c, nil
}

// ClaimUpTo leases up to n claimable pairs of consumer in the layout to instance.
func (s *Store) ClaimUpTo(ctx context.Context, instance, consumer string, parts, n int, now, until time.Time) ([]Key, error) {
	if n <= 0 {
		return nil, nil
	}
	var got []Key
	if err := s.db.Writer.SelectContext(ctx, &got, s.claim, instance, until, parts, consumer, now, now, n); err != nil {
		return nil, fmt.Errorf("event leases: claim: %w", err)
	}
	return got, nil
}

// Release frees one pair, if instance still holds it.
func (s *Store) Release(ctx context.Context, instance string, k Key, now time.Time) error {
	if _, err := s.db.Writer.ExecContext(ctx, s.free, now, k.Consumer, k.Parts, k.Part, instance); err != nil {
		return fmt.Errorf("event leases: release %s: %w", eventbus.PartGroup(k.Consumer, k.Part, k.Parts), err)
	}
	return nil
}

// LeaveAll frees every pair of instance and forgets it (a clean stop: others take over at once).
func (s *Store) LeaveAll(ctx context.Context, instance string, now time.Time) error {
	if _, err := s.db.Writer.ExecContext(ctx, s.leave, now, instance); err != nil {
		return fmt.Errorf("event leases: leave: %w", err)
	}
	if _, err := s.db.Writer.ExecContext(ctx, s.forgetInstance, instance); err != nil {
		return fmt.Errorf("event instances: leave: %w", err)
	}
	return nil
}

// Sweep forgets instances silent since before, and the lease rows of other layouts that
// nobody holds any more.
func (s *Store) Sweep(ctx context.Context, parts int, now, before time.Time) error {
	if _, err := s.db.Writer.ExecContext(ctx, s.sweepInstances, before); err != nil {
		return fmt.Errorf("event instances: sweep: %w", err)
	}
	if _, err := s.db.Writer.ExecContext(ctx, s.sweepLeases, parts, now); err != nil {
		return fmt.Errorf("event leases: sweep: %w", err)
	}
	return nil
}
