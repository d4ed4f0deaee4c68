package webhooks

import (
	"context"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// Signal wakes the dispatcher: new deliveries were written, or room was freed. It is a
// hint that coalesces; the dispatcher polls as well.
type Signal struct {
	c chan struct{}
}

// NewSignal builds a signal.
func NewSignal() *Signal { return &Signal{c: make(chan struct{}, 1)} }

// Wake never blocks.
func (s *Signal) Wake() {
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// C delivers wake-ups.
func (s *Signal) C() <-chan struct{} { return s.c }

// CommitWaker wakes the dispatcher once the transaction in ctx has committed (the
// fan-out's is a subscriber's batch, committed after its handlers return), so that the
// claim that follows finds the new deliveries.
type CommitWaker struct{ Signal *Signal }

// Wake implements the application's Waker.
func (w CommitWaker) Wake(ctx context.Context) {
	if !sqldb.AfterCommit(ctx, w.Signal.Wake) {
		w.Signal.Wake()
	}
}
