package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// NewDatabase leases blocks of the rate_limit_counters table of db; lifetime <= 0
// means DefaultLeaseLifetime.
func NewDatabase(db *sqldb.DB, lifetime time.Duration) *Leased {
	return newLeased(&databaseRows{Prepared: prepareLeaseStatements(db)}, lifetime)
}

// databaseRows keeps the rows in the rate_limit_counters table: an update is one
// transaction holding the subject's row lock (on SQLite the writer is serialized).
type databaseRows struct {
	sqldb.Prepared[databaseStatements]
}

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

// errRowRace: another instance inserted the subject's first row at the same moment.
var errRowRace = errors.New("rate-limit row created concurrently")

func (d *databaseRows) update(ctx context.Context, subject string, change func(r *counterRow)) error {
	for {
		err := d.DB.WithinTx(ctx, func(ctx context.Context) error {
			var r counterRow
			found, err := sqldb.Found(d.DB.Write(ctx).QueryRowxContext(ctx, d.Q.Lock, subject).
				Scan(&r.minuteStart, &r.minuteCount, &r.dayStart, &r.dayCount, &r.minuteLeased, &r.dayLeased))
			if err != nil {
				return fmt.Errorf("lock counter: %w", err)
			}
			change(&r)
			args := []any{r.minuteStart, r.minuteCount, r.dayStart, r.dayCount, r.minuteLeased, r.dayLeased, subject}
			if found {
				if _, err := d.DB.Write(ctx).ExecContext(ctx, d.Q.Update, args...); err != nil {
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
		if !errors.Is(err, errRowRace) {
			return err
		}
	}
}

func (d *databaseRows) settle(ctx context.Context, subject string, b block) error {
	unused := b.granted - b.used
	_, err := d.DB.Writer.ExecContext(ctx, d.Q.Settle,
		b.minute, unused, b.minute, b.granted, b.granted,
		b.day, unused, b.day, b.granted, b.granted, subject)
	if err != nil {
		return fmt.Errorf("hand back requests: %w", err)
	}
	return nil
}

func (d *databaseRows) deleteOld(ctx context.Context, cutoff int64) (int, error) {
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
