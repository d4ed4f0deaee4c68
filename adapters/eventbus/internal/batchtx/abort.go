package watermill

import (
	"context"
	"errors"
	"time"
)

// batchAbort marks a subscriber's batch transaction that must roll back and come again
// in a new one: an event failed on the transaction itself (a serialization failure, whose
// snapshot would conflict again, or a broken savepoint). A Nack cannot do that:
// watermill-sql resends a nacked message in the same transaction, every ResendInterval
// until the AckDeadline, and that open transaction holds every later event of every
// consumer back (its snapshot xmin) meanwhile. So the router acknowledges the event
// instead, acknowledges the rest of the batch without applying it, and the batch's ack
// statement fails (flushingOffsets), which rolls the whole batch back. One per BeginTx.
type batchAbort struct{ err error }

type batchAbortKey struct{}

func withBatchAbort(ctx context.Context, a *batchAbort) context.Context {
	return context.WithValue(ctx, batchAbortKey{}, a)
}

func batchAbortFrom(ctx context.Context) *batchAbort {
	a, _ := ctx.Value(batchAbortKey{}).(*batchAbort)
	return a
}

// abortedBatchWait is how long a subscriber waits before it polls an aborted batch again.
const abortedBatchWait = 10 * time.Millisecond

// errBatchAborted fails the ack statement of an aborted batch.
var errBatchAborted = errors.New("batch aborted: roll it back")
