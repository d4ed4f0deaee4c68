package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// watchEvery is how often a serving SQLite process asks PRAGMA data_version. Each answer
// keeps the caches trusted for SQLiteTrust from its start, so any interval well under it
// keeps them trusted throughout; asking more often only costs an idle process CPU (every
// 2 ms: about 5 % of a core, modernc.org/sqlite's statement and the scheduler).
const watchEvery = 20 * time.Millisecond

// settleSQLite drops the entry in this process once the transaction commits; a process
// that does not watch the file (a CLI verb) then waits SQLiteWait, so that the serving
// process has seen the commit or stopped trusting its cache when the command returns.
func (c *Caches) settleSQLite(ctx context.Context, name, key string) error {
	settle := func() {
		c.apply(name, key)
		if !c.watching.Load() {
			time.Sleep(SQLiteWait)
		}
	}
	if !AfterCommit(ctx, settle) {
		if _, inTx := TxFromContext(ctx); !inTx {
			settle()
		}
	}
	return nil
}

// dataVersionWatch asks SQLite whether anyone else committed since the last question:
// PRAGMA data_version, on a connection that never writes, changes with every commit of
// any other connection or process (this process's writer, a CLI verb on the same file).
type dataVersionWatch struct {
	db    *DB
	conn  *sql.Conn
	stmt  *sql.Stmt
	last  int64
	known bool
}

// ask reports whether a commit happened since the previous question.
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
		w.close()
		return false, fmt.Errorf("data version: %w", err)
	}
	changed := !w.known || v != w.last
	w.last, w.known = v, true
	return changed, nil
}

func (w *dataVersionWatch) close() {
	if w.conn != nil {
		_ = w.stmt.Close()
		_ = w.conn.Close()
		w.conn, w.stmt, w.known = nil, nil, false
	}
}

// sqliteWatch is the worker of a serving SQLite process: it keeps the caches trusted for
// SQLiteTrust after each data_version answer, emptying them when the version moved.
type sqliteWatch struct {
	c      *Caches
	cancel context.CancelFunc
	done   chan struct{}
}

func (s *sqliteWatch) Start(context.Context) error {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	s.c.watching.Store(true)
	go s.run(ctx)
	return nil
}

func (s *sqliteWatch) Stop(ctx context.Context) error {
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	select {
	case <-s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.c.watching.Store(false)
	s.c.distrust()
	return nil
}

func (s *sqliteWatch) run(ctx context.Context) {
	defer close(s.done)
	defer s.c.version.close()
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	for {
		start := time.Now()
		actx, cancel := context.WithTimeout(ctx, time.Second)
		changed, err := s.c.version.ask(actx)
		cancel()
		if changed {
			s.c.flushAll()
		}
		if err == nil {
			s.c.trustUntilAt(start.Add(SQLiteTrust))
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
