package watermill

import (
	"context"
	"fmt"
	"time"

	wm "github.com/ThreeDotsLabs/watermill"
	"github.com/jackc/pgx/v5"
)

// NotifyChannel is the PostgreSQL channel the outbox notifies when events commit.
const NotifyChannel = "creatorapi_events"

// Listener wakes this instance's subscribers when any instance commits events: it
// LISTENs on NotifyChannel on a dedicated connection (LISTEN needs one session, which
// database/sql pools do not offer). It reconnects after errors, and wakes subscribers
// on every (re)connect since notifications sent while it was away are lost.
type Listener struct {
	dsn    string
	wake   *Wakeup
	logger wm.LoggerAdapter
	cancel context.CancelFunc
	done   chan struct{}
}

// NewListener builds a listener on the PostgreSQL database at dsn.
func NewListener(dsn string, wake *Wakeup, logger wm.LoggerAdapter) *Listener {
	return &Listener{dsn: dsn, wake: wake, logger: logger}
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

func (l *Listener) connect(ctx context.Context) (*pgx.Conn, error) {
	conn, err := pgx.Connect(ctx, l.dsn)
	if err != nil {
		return nil, fmt.Errorf("events listener: connect: %w", err)
	}
	if _, err := conn.Exec(ctx, "LISTEN "+NotifyChannel); err != nil {
		_ = conn.Close(ctx)
		return nil, fmt.Errorf("events listener: listen: %w", err)
	}
	return conn, nil
}

func (l *Listener) run(ctx context.Context, conn *pgx.Conn) {
	defer close(l.done)
	backoff := 100 * time.Millisecond
	for {
		err := l.listen(ctx, conn)
		_ = conn.Close(context.Background())
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
				l.logger.Error("events listener cannot reconnect", err, wm.LogFields{"retry_in": backoff})
			}
		}
		backoff = 100 * time.Millisecond
		l.wake.Notify() // notifications sent while disconnected are gone
	}
}

func (l *Listener) listen(ctx context.Context, conn *pgx.Conn) error {
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return err
		}
		l.wake.Notify()
	}
}
