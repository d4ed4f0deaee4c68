package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Settings keeps service-wide named values.
type Settings struct {
	db       *sqldb.DB
	get, put string
}

// NewSettings prepares the statements for db's dialect.
func NewSettings(db *sqldb.DB) *Settings {
	return &Settings{
		db:  db,
		get: db.Rebind(`SELECT value FROM settings WHERE name = ?`),
		put: db.Rebind(`INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`),
	}
}

// Get returns the value of name; ok is false when unset.
func (s *Settings) Get(ctx context.Context, name string) (value string, ok bool, err error) {
	err = s.db.Read(ctx).GetContext(ctx, &value, s.get, name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("get setting %s: %w", name, err)
	}
	return value, true, nil
}

// Set stores value under name.
func (s *Settings) Set(ctx context.Context, name, value string, now time.Time) error {
	if _, err := s.db.Write(ctx).ExecContext(ctx, s.put, name, value, now); err != nil {
		return fmt.Errorf("set setting %s: %w", name, err)
	}
	return nil
}
