package ratelimit

import (
	"context"
	"errors"
	"fmt"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
)

type databaseStatements struct{ Lock, Update, Insert, Settle, Delete string }

func prepareLeaseStatements(db *sqldb.DB) sqldb.Prepared[databaseStatements] {
	return sqldb.Prepare(db, databaseStatements{
		Lock: `SELECT minute_start, minute_count, day_start, day_count, minute_leased, day_leased
FROM rate_limit_counters WHERE subject = ?` + db.ForUpdate(),
		Update: `UPDATE rate_limit_counters SET minute_start = ?, minute_count = ?, day_start = ?, day_count = ?,
  minute_leased = ?, day_leased = ? WHERE subject = ?`,
		Insert: `INSERT INTO rate_limit_counters (minute_start, minute_count, day_start, day_count, minute_leased, day_leased, subject)
VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (subject) DO NOTHING`,
		// Hands back the unused part of a block, in the windows it was cut from only: a
		// window that has moved on forgot it already.
		Settle: `UPDATE rate_limit_counters SET
  minute_count = CASE WHEN minute_start = ? THEN minute_count - ? ELSE minute_count END,
  minute_leased = CASE WHEN minute_start <> ? THEN minute_leased WHEN minute_leased > ? THEN minute_leased - ? ELSE 0 END,
  day_count = CASE WHEN day_start = ? THEN day_count - ? ELSE day_count END,
  day_leased = CASE WHEN day_start <> ? THEN day_leased WHEN day_leased > ? THEN day_leased - ? ELSE 0 END
WHERE subject = ?`,
		Delete: `DELETE FROM rate_limit_counters WHERE day_start < ?`,
	})
}

// counterRow is one subject's row: both windows' starts, what was claimed in each and
// how much of that is blocks still held by instances.
type counterRow struct {
	minuteStart, dayStart   int64
	minuteCount, dayCount   int
	minuteLeased, dayLeased int
}

// settle hands back b's unused requests and drops it from the leased totals.
func (r *counterRow) settle(b block) {
	unused := b.granted - b.used
	if r.minuteStart == b.minute {
		r.minuteCount -= unused
		r.minuteLeased = max(r.minuteLeased-b.granted, 0)
	}
	if r.dayStart == b.day {
		r.dayCount -= unused
		r.dayLeased = max(r.dayLeased-b.granted, 0)
	}
}

// roll opens the windows of w when they are newer; a window never moves back, so an
// instance whose clock lags counts in the window another has opened.
func (r *counterRow) roll(w ratelimit.Windows) {
	if m := w.Minute.Unix(); m > r.minuteStart {
		r.minuteStart, r.minuteCount, r.minuteLeased = m, 0, 0
	}
	if d := w.Day.Unix(); d > r.dayStart {
		r.dayStart, r.dayCount, r.dayLeased = d, 0, 0
	}
}

type claimResult struct {
	kind        ratelimit.GrantKind
	n           int
	minute, day int64
	known       ratelimit.Usage
}

// errRowRace: another instance inserted the subject's first row at the same moment.
var errRowRace = errors.New("rate-limit row created concurrently")

// claimOnce settles this instance's previous block of subject, if any, and asks for a
// new one (or a single request) in one transaction holding the subject's row lock. With
// forget, blocks that other instances have not settled in time are counted as used.
func (d *Database) claimOnce(ctx context.Context, subject string, e *leaseEntry, w ratelimit.Windows, q ratelimit.Quota, want int, forget bool) (claimResult, error) {
	for {
		var res claimResult
		err := d.DB.WithinTx(ctx, func(ctx context.Context) error {
			var r counterRow
			found, err := sqldb.Found(d.DB.Write(ctx).QueryRowxContext(ctx, d.Q.Lock, subject).
				Scan(&r.minuteStart, &r.minuteCount, &r.dayStart, &r.dayCount, &r.minuteLeased, &r.dayLeased))
			if err != nil {
				return fmt.Errorf("lock counter: %w", err)
			}
			if e.block.active {
				r.settle(e.block)
			}
			r.roll(w)
			if forget {
				r.minuteLeased, r.dayLeased = 0, 0
			}
			c := ratelimit.Claimed{Minute: r.minuteCount, Day: r.dayCount, MinuteLeased: r.minuteLeased, DayLeased: r.dayLeased}
			res.kind, res.n = ratelimit.Grant(c, q, want)
			res.minute, res.day, res.known = r.minuteStart, r.dayStart, c.Known()
			switch res.kind {
			case ratelimit.Block:
				r.minuteCount, r.dayCount = r.minuteCount+res.n, r.dayCount+res.n
				r.minuteLeased, r.dayLeased = r.minuteLeased+res.n, r.dayLeased+res.n
			case ratelimit.Single:
				r.minuteCount, r.dayCount = r.minuteCount+1, r.dayCount+1
			}
			args := []any{r.minuteStart, r.minuteCount, r.dayStart, r.dayCount, r.minuteLeased, r.dayLeased, subject}
			if found {
				_, err = d.DB.Write(ctx).ExecContext(ctx, d.Q.Update, args...)
				if err != nil {
					return fmt.Errorf("update counter: %w", err)
				}
				return nil
			}
			inserted, err := d.DB.Changes(ctx, "insert counter", d.Q.Insert, args...)
			if err != nil {
				return err
			}
			if !inserted {
				return errRowRace
			}
			return nil
		})
		if errors.Is(err, errRowRace) {
			continue
		}
		if err != nil {
			return res, fmt.Errorf("claim requests: %w", err)
		}
		e.block.active = false // settled in the transaction, if there was one
		return res, nil
	}
}

// settle hands back b's unused requests outside any claim (expiry, shutdown).
func (d *Database) settle(ctx context.Context, subject string, b block) error {
	unused := b.granted - b.used
	_, err := d.DB.Writer.ExecContext(ctx, d.Q.Settle,
		b.minute, unused, b.minute, b.granted, b.granted,
		b.day, unused, b.day, b.granted, b.granted, subject)
	if err != nil {
		return fmt.Errorf("hand back requests: %w", err)
	}
	return nil
}

func (d *Database) deleteOld(ctx context.Context, cutoff int64) (int, error) {
	res, err := d.DB.Write(ctx).ExecContext(ctx, d.Q.Delete, cutoff)
	if err != nil {
		return 0, fmt.Errorf("delete old windows: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete old windows: %w", err)
	}
	return int(n), nil
}
