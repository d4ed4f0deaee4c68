package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
)

// dataVersionWatch asks SQLite whether anyone else committed since the last question:
// PRAGMA data_version, on a connection that never writes, changes with every commit of
// any other connection or process (this process's writer, a CLI verb on the same file).
// Concurrent callers share one question, provided it was asked after they arrived.
type dataVersionWatch struct {
	db      *DB
	asked   atomic.Uint64 // questions started
	mu      sync.Mutex
	conn    *sql.Conn
	stmt    *sql.Stmt
	last    int64
	known   bool
	lastErr error // the answer of the last question
}

// check calls changed, before it returns, when a commit happened since the previous check.
func (w *dataVersionWatch) check(ctx context.Context, changed func()) error {
	arrived := w.asked.Load()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.asked.Load() > arrived { // a question started after we arrived and has been answered:
		return w.lastErr // what it saw covers our arrival, and it flushed what it had to
	}
	w.asked.Add(1)
	var moved bool
	if moved, w.lastErr = w.ask(ctx); moved {
		changed()
	}
	return w.lastErr
}

func (w *dataVersionWatch) ask(ctx context.Context) (bool, error) {
	if w.conn == nil {
		conn, err := w.db.Reader.Conn(ctx)
		if err != nil {
			return false, fmt.Errorf("data version: %w", err)
		}
		stmt, err := conn.PrepareContext(ctx, "PRAGMA data_version")
		if err != nil {
			_ = conn.Close()
			return false, fmt.Errorf("data version: %w", err)
		}
		w.conn, w.stmt = conn, stmt
	}
	var v int64
	if err := w.stmt.QueryRowContext(ctx).Scan(&v); err != nil {
		_ = w.stmt.Close()
		_ = w.conn.Close()
		w.conn, w.stmt, w.known = nil, nil, false
		return false, fmt.Errorf("data version: %w", err)
	}
	changed := !w.known || v != w.last
	w.last, w.known = v, true
	return changed, nil
}

func (w *dataVersionWatch) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil {
		_ = w.stmt.Close()
		_ = w.conn.Close()
		w.conn, w.stmt = nil, nil
	}
}
