package wakeup

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/creatorapi/creatorapi/adapters/background"
)

// NotifyChannel is the PostgreSQL channel the outbox notifies when events commit.
const NotifyChannel = "creatorapi_events"

// Listener wakes this instance's subscribers when any instance commits events: it
// LISTENs on NotifyChannel on one connection it keeps out of the pool (LISTEN needs a
// session of its own; borrowing it from the pool adds no connection to the server). It
// reconnects after errors (background.Session), and wakes subscribers on every reconnect
// since notifications sent while it was away are lost.
type Listener struct {
	background.Session[*sql.Conn]
	db   *sql.DB
	wake *Wakeup
}

// NewListener builds a listener on db, a pgx (database/sql) pool.
func NewListener(db *sql.DB, wake *Wakeup, logger watermill.LoggerAdapter) *Listener {
	l := &Listener{db: db, wake: wake}
	l.Session = background.Session[*sql.Conn]{
		Connect: l.connect,
		Serve:   l.listen,
		Close:   func(conn *sql.Conn) { _ = conn.Close() },
		Lost:    func(err error) { logger.Error("events listener lost its connection", err, nil) },
		Retrying: func(err error, retry time.Duration) {
			logger.Error("events listener cannot reconnect", err, watermill.LogFields{"retry_in": retry})
		},
		Resumed:    func() { wake.Notify() }, // notifications sent while disconnected are gone
		MaxBackoff: 10 * time.Second,
	}
	return l
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
