package background

import (
	"context"
	"time"
)

// Session is a worker that holds one connection for as long as it runs: Start connects
// (failing fast, so that a bad address stops start-up), then a goroutine serves the
// connection and, whenever a session ends before Stop, closes it and connects again,
// waiting 100 ms after the loss and doubling the wait after each failed attempt up to
// MaxBackoff. The LISTEN connections of the event wakeups and of the cache invalidation
// are such workers.
type Session[C any] struct {
	Connect    func(ctx context.Context) (C, error)
	Serve      func(ctx context.Context, conn C) error // returns when the session ends
	Close      func(conn C)
	Lost       func(err error)                      // a session ended before Stop; may be nil
	Retrying   func(err error, retry time.Duration) // a reconnect failed; may be nil
	Resumed    func()                               // a new session began after a loss; may be nil
	MaxBackoff time.Duration

	cancel context.CancelFunc
	done   chan struct{}
}

const firstBackoff = 100 * time.Millisecond

// Start connects once, then serves in the background.
func (s *Session[C]) Start(ctx context.Context) error {
	conn, err := s.Connect(ctx)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel, s.done = cancel, make(chan struct{})
	go s.run(runCtx, conn)
	return nil
}

// Stop ends the session in progress (or the wait to reconnect) and waits for it.
func (s *Session[C]) Stop(ctx context.Context) error {
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Session[C]) run(ctx context.Context, conn C) {
	defer close(s.done)
	for {
		err := s.Serve(ctx, conn)
		s.Close(conn)
		if ctx.Err() != nil {
			return
		}
		if s.Lost != nil {
			s.Lost(err)
		}
		if conn, err = s.reconnect(ctx); err != nil {
			return // stopped while reconnecting
		}
		if s.Resumed != nil {
			s.Resumed()
		}
	}
}

// reconnect connects again with a growing wait, until it succeeds or ctx ends.
func (s *Session[C]) reconnect(ctx context.Context) (C, error) {
	for backoff := firstBackoff; ; {
		select {
		case <-ctx.Done():
			var zero C
			return zero, ctx.Err()
		case <-time.After(backoff):
		}
		conn, err := s.Connect(ctx)
		if err == nil {
			return conn, nil
		}
		backoff = min(2*backoff, s.MaxBackoff)
		if s.Retrying != nil {
			s.Retrying(err, backoff)
		}
	}
}
