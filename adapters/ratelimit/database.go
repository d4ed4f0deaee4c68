package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
)

// Database counts in the rate_limit_counters table, so that instances sharing the
// database share the quota exactly. One row per subject holds both windows; one
// upsert checks and counts both, and the row lock it takes serializes concurrent
// requests of one subject across instances.
type Database struct {
	sqldb.Prepared[databaseStatements]
}

type databaseStatements struct{ Take, Usage, Delete string }

// NewDatabase prepares the statements for db's dialect (PostgreSQL or SQLite: both
// have INSERT ... ON CONFLICT DO UPDATE ... WHERE ... RETURNING).
func NewDatabase(db *sqldb.DB) *Database {
	return &Database{sqldb.Prepare(db, databaseStatements{
		// A window only moves forward (">"), so an instance whose clock lags cannot
		// reset a window another instance has already opened. A refused request
		// matches the WHERE clause nowhere and returns no row: nothing is counted.
		Take: `INSERT INTO rate_limit_counters AS c (subject, minute_start, minute_count, day_start, day_count)
VALUES (?, ?, 1, ?, 1)
ON CONFLICT (subject) DO UPDATE SET
  minute_count = CASE WHEN excluded.minute_start > c.minute_start THEN 1 ELSE c.minute_count + 1 END,
  minute_start = CASE WHEN excluded.minute_start > c.minute_start THEN excluded.minute_start ELSE c.minute_start END,
  day_count = CASE WHEN excluded.day_start > c.day_start THEN 1 ELSE c.day_count + 1 END,
  day_start = CASE WHEN excluded.day_start > c.day_start THEN excluded.day_start ELSE c.day_start END
WHERE (excluded.minute_start > c.minute_start OR c.minute_count < ?)
  AND (excluded.day_start > c.day_start OR c.day_count < ?)
RETURNING minute_count, day_count`,
		Usage:  `SELECT minute_start, minute_count, day_start, day_count FROM rate_limit_counters WHERE subject = ?`,
		Delete: `DELETE FROM rate_limit_counters WHERE day_start < ?`,
	})}
}

// Take runs the upsert; when it refuses, it reads the usage for the headers.
func (d *Database) Take(ctx context.Context, subject string, w ratelimit.Windows, q ratelimit.Quota) (ratelimit.Usage, bool, error) {
	minute, day := w.Minute.Unix(), w.Day.Unix()
	var u ratelimit.Usage
	taken, err := sqldb.Found(d.DB.Write(ctx).QueryRowxContext(ctx, d.Q.Take, subject, minute, day, q.PerMinute, q.PerDay).Scan(&u.Minute, &u.Day))
	if err != nil {
		return u, false, fmt.Errorf("count request: %w", err)
	}
	if taken {
		return u, true, nil
	}
	// Refused. Counts only grow within a window, so a later read still shows the
	// bucket that refused, unless the window has just turned.
	var row struct{ minuteStart, minuteCount, dayStart, dayCount int64 }
	_, err = sqldb.Found(d.DB.Write(ctx).QueryRowxContext(ctx, d.Q.Usage, subject).Scan(&row.minuteStart, &row.minuteCount, &row.dayStart, &row.dayCount))
	if err != nil {
		return u, false, fmt.Errorf("read usage: %w", err)
	}
	if row.minuteStart >= minute {
		u.Minute = int(row.minuteCount)
	}
	if row.dayStart >= day {
		u.Day = int(row.dayCount)
	}
	return u, false, nil
}

// Sweep deletes the rows whose day window started before dayStart.
func (d *Database) Sweep(ctx context.Context, dayStart time.Time) (int, error) {
	res, err := d.DB.Write(ctx).ExecContext(ctx, d.Q.Delete, dayStart.Unix())
	if err != nil {
		return 0, fmt.Errorf("delete old windows: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("delete old windows: %w", err)
	}
	return int(n), nil
}
