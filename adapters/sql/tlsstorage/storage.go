// Package tlsstorage is certmagic's storage in the service's database: it owns the
// tls_storage and tls_locks tables (docs/architecture.md, "Table ownership"). Instances
// sharing one PostgreSQL share certificates, the ACME account and the issuance locks, so
// one orders and the others load what it stored.
package tlsstorage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/caddyserver/certmagic"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Storage implements certmagic.Storage over sqldb.
type Storage struct {
	sqldb.Prepared[statements]
	locks *locks
}

var _ certmagic.Storage = (*Storage)(nil)

type statements struct{ Store, Load, Delete, Keys, Stat, TakeLock, RenewLock, DropLock string }

// New prepares the statements for db's dialect.
func New(db *sqldb.DB) *Storage {
	s := &Storage{Prepared: sqldb.Prepare(db, statements{
		Store: `INSERT INTO tls_storage (key, value, modified_ms) VALUES (?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value, modified_ms = excluded.modified_ms`,
		Load: `SELECT value FROM tls_storage WHERE key = ?`,
		// A key and everything under it ("a/b" and "a/b/..."), as certmagic's file storage does.
		Delete: `DELETE FROM tls_storage WHERE key = ? OR substr(key, 1, length(?)) = ?`,
		Keys:   `SELECT key FROM tls_storage WHERE substr(key, 1, length(?)) = ? ORDER BY key`,
		Stat:   `SELECT length(value) AS size, modified_ms FROM tls_storage WHERE key = ?`,
		// Taken when free or expired: the conditional upsert settles a race in the database.
		TakeLock: `INSERT INTO tls_locks (name, owner, expires_ms) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, expires_ms = excluded.expires_ms
			WHERE tls_locks.expires_ms < ?`,
		RenewLock: `UPDATE tls_locks SET expires_ms = ? WHERE name = ? AND owner = ?`,
		DropLock:  `DELETE FROM tls_locks WHERE name = ? AND owner = ?`,
	})}
	s.locks = newLocks(s)
	return s
}

// Store writes value at key.
func (s *Storage) Store(ctx context.Context, key string, value []byte) error {
	return s.DB.Exec(ctx, "store TLS data", s.Q.Store, key, value, time.Now().UnixMilli())
}

// Load reads key; fs.ErrNotExist when absent (certmagic checks for it).
func (s *Storage) Load(ctx context.Context, key string) ([]byte, error) {
	var v []byte
	err := s.DB.Read(ctx).GetContext(ctx, &v, s.Q.Load, key)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("TLS data %s: %w", key, fs.ErrNotExist)
	}
	if err != nil {
		return nil, fmt.Errorf("load TLS data %s: %w", key, err)
	}
	return v, nil
}

// Delete removes key and the keys under it.
func (s *Storage) Delete(ctx context.Context, key string) error {
	prefix := key + "/"
	return s.DB.Exec(ctx, "delete TLS data", s.Q.Delete, key, prefix, prefix)
}

// Exists reports whether key holds a value.
func (s *Storage) Exists(ctx context.Context, key string) bool {
	_, err := s.Load(ctx, key)
	return err == nil
}

// List names the keys under path: all of them (recursive) or the next level only.
func (s *Storage) List(ctx context.Context, path string, recursive bool) ([]string, error) {
	prefix := strings.TrimSuffix(path, "/") + "/"
	if path == "" {
		prefix = ""
	}
	var keys []string
	if err := s.DB.Read(ctx).SelectContext(ctx, &keys, s.Q.Keys, prefix, prefix); err != nil {
		return nil, fmt.Errorf("list TLS data %s: %w", path, err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("TLS data under %s: %w", path, fs.ErrNotExist)
	}
	if recursive {
		return keys, nil
	}
	var level []string
	for _, k := range keys {
		child, _, _ := strings.Cut(strings.TrimPrefix(k, prefix), "/")
		if name := prefix + child; !slices.Contains(level, name) {
			level = append(level, name)
		}
	}
	return level, nil
}

// Stat describes key: a value, or a "directory" when only keys under it exist.
func (s *Storage) Stat(ctx context.Context, key string) (certmagic.KeyInfo, error) {
	var row struct {
		Size       int64 `db:"size"`
		ModifiedMS int64 `db:"modified_ms"`
	}
	err := s.DB.Read(ctx).GetContext(ctx, &row, s.Q.Stat, key)
	switch {
	case err == nil:
		return certmagic.KeyInfo{Key: key, Modified: time.UnixMilli(row.ModifiedMS), Size: row.Size, IsTerminal: true}, nil
	case !errors.Is(err, sql.ErrNoRows):
		return certmagic.KeyInfo{}, fmt.Errorf("stat TLS data %s: %w", key, err)
	}
	if _, err := s.List(ctx, key, false); err != nil {
		return certmagic.KeyInfo{}, err
	}
	return certmagic.KeyInfo{Key: key, IsTerminal: false}, nil
}

// Lock takes the named lock, waiting while another instance holds it (ctx bounds the wait).
func (s *Storage) Lock(ctx context.Context, name string) error { return s.locks.lock(ctx, name) }

// Unlock releases a lock this instance holds.
func (s *Storage) Unlock(ctx context.Context, name string) error { return s.locks.unlock(ctx, name) }
