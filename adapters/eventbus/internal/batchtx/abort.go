package batchtx

import (
	"context"
	"errors"
	"time"
)

// Abort marks a subscriber's batch transaction that must roll back and come again
// in a new one: an event failed on the transaction itself (a serialization failure, whose
// snapshot would conflict again, or a broken savepoint). A Nack cannot do that:
// watermill-sql resends a nacked message in the same transaction, every ResendInterval
// until the AckDeadline, and that open transaction holds every later event of every
// consumer back (its snapshot xmin) meanwhile. So the router acknowledges the event
// instead, acknowledges the rest of the batch without applying it, and the batch's ack
// statement fails (sqltransport.flushingOffsets), which rolls the whole batch back. One per BeginTx.
type Abort struct{ Err error }

type abortKey struct{}

// WithAbort gives ctx the batch transaction's abort mark.
func WithAbort(ctx context.Context, a *Abort) context.Context {
	return context.WithValue(ctx, abortKey{}, a)
}

// AbortFrom returns ctx's abort mark; nil outside a batch transaction.
func AbortFrom(ctx context.Context) *Abort {
	a, _ := ctx.Value(abortKey{}).(*Abort)
	return a
}

// AbortedWait is how long a subscriber waits before it polls an aborted batch again.
const AbortedWait = 10 * time.Millisecond

// ErrAborted fails the ack statement of an aborted batch.
var ErrAborted = errors.New("batch aborted: roll it back")
