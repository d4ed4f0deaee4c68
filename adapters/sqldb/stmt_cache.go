package sqldb

import (
	"context"
	"database/sql"
	"sync"

	"github.com/jmoiron/sqlx"
)

// maxCachedStatements bounds the cache should a caller build statement texts on the fly.
const maxCachedStatements = 256

// stmtCache runs reads outside transactions as prepared statements, each prepared once
// per pooled connection by database/sql. modernc.org/sqlite otherwise parses the SQL text
// on every query (about a fifth of the CPU of a list request, profiled); pgx caches
// prepared statements itself, so only SQLite uses this.
type stmtCache struct {
	*sqlx.DB
	mu    sync.RWMutex
	stmts map[string]*sqlx.Stmt
}

func newStmtCache(db *sqlx.DB) *stmtCache {
	return &stmtCache{DB: db, stmts: map[string]*sqlx.Stmt{}}
}

// stmt returns the prepared statement of query, or nil when it cannot be cached (the
// caller then runs the text unprepared, so a bad statement fails where expected).
func (c *stmtCache) stmt(ctx context.Context, query string) *sqlx.Stmt {
	c.mu.RLock()
	s, ok := c.stmts[query]
	c.mu.RUnlock()
	if ok {
		return s
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts[query]; ok {
		return s
	}
	if len(c.stmts) >= maxCachedStatements {
		return nil
	}
	s, err := c.DB.PreparexContext(ctx, query)
	if err != nil {
		return nil
	}
	c.stmts[query] = s
	return s
}

func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return c.DB.QueryContext(ctx, query, args...)
}

func (c *stmtCache) QueryxContext(ctx context.Context, query string, args ...any) (*sqlx.Rows, error) {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryxContext(ctx, args...)
	}
	return c.DB.QueryxContext(ctx, query, args...)
}

func (c *stmtCache) QueryRowxContext(ctx context.Context, query string, args ...any) *sqlx.Row {
	if s := c.stmt(ctx, query); s != nil {
		return s.QueryRowxContext(ctx, args...)
	}
	return c.DB.QueryRowxContext(ctx, query, args...)
}

func (c *stmtCache) GetContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.GetContext(ctx, c, dest, query, args...)
}

func (c *stmtCache) SelectContext(ctx context.Context, dest any, query string, args ...any) error {
	return sqlx.SelectContext(ctx, c, dest, query, args...)
}

// close releases the prepared statements.
func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.stmts {
		_ = s.Close()
	}
	c.stmts = map[string]*sqlx.Stmt{}
}
