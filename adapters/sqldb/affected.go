package sqldb

import (
	"context"
	"fmt"
)

// Changes runs stmt on the writer of ctx (its transaction, if any) and reports whether
// it changed a row: the answer of an INSERT ... ON CONFLICT DO NOTHING or a conditional
// UPDATE, which settle races in the database. what names the statement in errors.
func (db *DB) Changes(ctx context.Context, what, stmt string, args ...any) (bool, error) {
	res, err := db.Write(ctx).ExecContext(ctx, stmt, args...)
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("%s: %w", what, err)
	}
	return n > 0, nil
}
