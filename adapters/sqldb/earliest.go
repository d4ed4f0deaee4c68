package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Earliest runs statements that each select one instant (the first row of an ordered
// column, or none) and returns the earliest of them; ok is false when none has a row.
// The owners' "since when do your facts count" queries share it. Plain columns (no
// MIN) keep SQLite's time type.
func (db *DB) Earliest(ctx context.Context, statements ...string) (first time.Time, ok bool, err error) {
	for _, q := range statements {
		var t time.Time
		err := db.Read(ctx).GetContext(ctx, &t, q)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return time.Time{}, false, fmt.Errorf("earliest of %q: %w", q, err)
		}
		if !ok || t.Before(first) {
			first, ok = t.UTC(), true
		}
	}
	return first, ok, nil
}
