package sqldb

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsUniqueViolation tells whether err is a unique or primary-key constraint failure,
// on either engine: callers rely on constraints, not on check-then-insert.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var liteErr *sqlite.Error
	if errors.As(err, &liteErr) {
		code := liteErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// ForUpdate is the row-lock suffix of the dialect. SQLite needs none: its writer is
// serialized, and every transaction starts IMMEDIATE.
func (db *DB) ForUpdate() string {
	if db.Dialect == Postgres {
		return " FOR UPDATE"
	}
	return ""
}

// IsSerializationFailure tells whether err is PostgreSQL's refusal to commit or continue
// a transaction that conflicted with a concurrent one (40001) or deadlocked (40P01): the
// whole transaction must be retried from a fresh snapshot, never the statement alone.
func IsSerializationFailure(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40001" || pgErr.Code == "40P01")
}
