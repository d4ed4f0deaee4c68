// Package sqldb opens PostgreSQL or SQLite through sqlx and carries transactions in the context.
package sqldb

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	"go.opentelemetry.io/otel/trace"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver
)

// Dialect names the database engine.
type Dialect string

// Supported dialects.
const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// PostgresPoolSize bounds each instance's connections to PostgreSQL.
const PostgresPoolSize = 16

func init() {
	// sqlx does not know the modernc driver's name; it binds '?' like sqlite3.
	sqlx.BindDriver("sqlite", sqlx.QUESTION)
}

// DB is the database of the service. SQLite allows one writer at a time, so writes go
// through a single connection (BEGIN IMMEDIATE) and reads through a separate pool;
// on PostgreSQL both handles are the same pool.
type DB struct {
	Dialect Dialect
	Writer  *sqlx.DB
	Reader  *sqlx.DB
	reads   Querier      // Reader, through prepared statements on SQLite
	stmts   *stmtCache   // nil on PostgreSQL
	tracer  trace.Tracer // nil: transactions record no span
	caches  *Caches
	dsn     string // PostgreSQL: what Open was given (the cache listener connects with it)
}

// Open connects to databaseURL: postgres://... or postgresql://..., or sqlite://PATH
// (sqlite:// alone means creatorapi.db in dataDir).
func Open(ctx context.Context, databaseURL, dataDir string) (*DB, error) {
	switch {
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		return openPostgres(ctx, databaseURL)
	case databaseURL == "" || strings.HasPrefix(databaseURL, "sqlite://"):
		path := strings.TrimPrefix(databaseURL, "sqlite://")
		if path == "" {
			path = filepath.Join(dataDir, "creatorapi.db")
		}
		return openSQLite(ctx, path)
	default:
		return nil, fmt.Errorf("database url must start with postgres://, postgresql:// or sqlite://")
	}
}

func openPostgres(ctx context.Context, dsn string) (*DB, error) {
	cfg, err := postgresConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	db := sqlx.NewDb(stdlib.OpenDB(*cfg), "pgx")
	// Sixteen connections keep two cores busy; several instances must fit together under
	// the server's max_connections (100 by default) with room for the event listeners.
	db.SetMaxOpenConns(PostgresPoolSize)
	db.SetMaxIdleConns(PostgresPoolSize)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to postgres: %w", err)
	}
	d := FromPostgres(db)
	d.dsn = dsn
	return d, nil
}

// FromPostgres wraps a PostgreSQL pool opened by the caller (tests that need their own
// connection settings, such as auto_explain's notices).
func FromPostgres(db *sqlx.DB) *DB {
	db.Mapper = columnMapper()
	d := &DB{Dialect: Postgres, Writer: db, Reader: db, reads: db}
	d.caches = newCaches(d)
	return d
}

func openSQLite(ctx context.Context, path string) (*DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create database folder: %w", err)
		}
	}
	if err := restrictFiles(path); err != nil {
		return nil, err
	}
	pragmas := "_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)"
	fileURL := "file:" + (&url.URL{Path: path}).EscapedPath()
	writer, err := sqlx.Open("sqlite", fileURL+"?"+pragmas+"&_txlock=immediate")
	if err != nil {
		return nil, fmt.Errorf("open sqlite: %w", err)
	}
	writer.SetMaxOpenConns(1) // one writer: deferred transactions would fail with "database is locked"
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	if err := writer.PingContext(ctx); err != nil {
		writer.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	reader, err := sqlx.Open("sqlite", fileURL+"?"+pragmas+"&_pragma=query_only(1)")
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("open sqlite reader: %w", err)
	}
	reader.SetMaxOpenConns(8)
	reader.SetMaxIdleConns(8)
	reader.SetConnMaxLifetime(0)
	writer.Mapper, reader.Mapper = columnMapper(), columnMapper()
	stmts := newStmtCache(reader)
	d := &DB{Dialect: SQLite, Writer: writer, Reader: reader, reads: stmts, stmts: stmts}
	d.caches = newCaches(d)
	return d, nil
}

// Close closes both handles.
func (db *DB) Close() error {
	if db.stmts != nil {
		db.stmts.close()
	}
	if db.caches != nil && db.caches.version != nil {
		db.caches.version.close()
	}
	err := db.Writer.Close()
	if db.Reader != db.Writer {
		if rerr := db.Reader.Close(); err == nil {
			err = rerr
		}
	}
	return err
}
