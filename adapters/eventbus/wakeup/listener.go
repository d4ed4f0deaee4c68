package wakeup

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/jackc/pgx/v5/stdlib"
)

// NotifyChannel is the PostgreSQL channel the outbox notifies when events commit.
const NotifyChannel = "creatorapi_events"

// Listener wakes this instance's subscribers when any instance commits events: it
// LISTENs on NotifyChannel on one connection it keeps out of the pool (LISTEN needs a
// session of its own; borrowing it from the pool adds no connection to the server). It
// reconnects after errors, and wakes subscribers on every (re)connect since
// notifications sent while it was away are lost.
type Listener struct {
	db     *sql.DB
	wake   *Wakeup
	logger watermill.LoggerAdapter
	cancel context.CancelFunc
	done   chan struct{}
}

// NewListener builds a listener on db, a pgx (database/sql) pool.
func NewListener(db *sql.DB, wake *Wakeup, logger watermill.LoggerAdapter) *Listener {
	return &Listener{db: db, wake: wake, logger: logger}
}

// Start connects once (failing fast on a bad DSN), then listens in the background.
func (l *Listener) Start(ctx context.Context) error {
	conn, err := l.connect(ctx)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	l.cancel, l.done = cancel, make(chan struct{})
	go l.run(runCtx, conn)
	return nil
}

// Stop ends the listener and closes its connection.
func (l *Listener) Stop(ctx context.Context) error {
	if l.cancel == nil {
		return nil
	}
	l.cancel()
	select {
	case <-l.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// connect borrows a connection from the pool and LISTENs on it.
func (l *Listener) connect(ctx context.Context) (*sql.Conn, error) {
	conn, err := l.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("events listener: connect: %w", err)
	}
	if _, err := conn.ExecContext(ctx, "LISTEN "+NotifyChannel); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("events listener: listen: %w", err)
	}
	return conn, nil
}

func (l *Listener) run(ctx context.Context, conn *sql.Conn) {
	defer close(l.done)
	backoff := 100 * time.Millisecond
	for {
		err := l.listen(ctx, conn)
		_ = conn.Close()
		if ctx.Err() != nil {
			return
		}
		l.logger.Error("events listener lost its connection", err, nil)
		for conn = nil; conn == nil; {
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			if conn, err = l.connect(ctx); err != nil {
				backoff = min(2*backoff, 10*time.Second)
				l.logger.Error("events listener cannot reconnect", err, watermill.LogFields{"retry_in": backoff})
			}
		}
		backoff = 100 * time.Millisecond
		l.wake.Notify() // notifications sent while disconnected are gone
	}
}

// listen waits for notifications on the pgx connection under conn. When it ends, the
// connection goes back to the pool only if it is healthy and no longer listening.
func (l *Listener) listen(ctx context.Context, conn *sql.Conn) error {
	return conn.Raw(func(driverConn any) error {
		sc, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("events listener: %T is not a pgx connection", driverConn)
		}
		pc := sc.Conn()
		for {
			n, err := pc.WaitForNotification(ctx)
			if err != nil {
				if pc.IsClosed() {
					return driver.ErrBadConn
				}
				uctx, cancel := context.WithTimeout(context.Background(), time.Second)
				defer cancel()
				if _, uerr := pc.Exec(uctx, "UNLISTEN *"); uerr != nil {
					return driver.ErrBadConn
				}
				return err
			}
			from, keys, types := parseNotification(n.Payload)
			if from != "" && from == l.wake.instance {
				continue // our own commit: its in-process signal already woke us
			}
			l.wake.NotifyEvents(keys, types)
		}
	})
}
