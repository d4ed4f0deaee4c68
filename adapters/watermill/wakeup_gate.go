package watermill

import (
	"context"
	"database/sql"
	"errors"
	"time"

	wm "github.com/ThreeDotsLabs/watermill"
)

// gate makes a wsql.Subscriber sleep until it is woken instead of polling fast.
// watermill-sql v3.1.0 only sleeps between polls for what its BackoffManager returns, and
// begins each poll with Beginner.BeginTx: the gate is both. It returns no backoff, and
// blocks in BeginTx after an empty poll until a wakeup signal, the slow safety poll, or
// stop. After a signal or a delivered batch it re-polls a few times at short, growing
// intervals before sleeping again: on PostgreSQL a committed event stays invisible while
// an older transaction (say another consumer's batch) is still open.
//
// HandleError and BeginTx run on the subscriber's single consume goroutine (and on the
// Subscribe call before it), so the gate's state needs no lock.
type gate struct {
	*sql.DB // the ContextExecutor part of wsql.Beginner
	signals <-chan struct{}
	stop    <-chan struct{}
	idle    time.Duration   // safety poll when nothing signals
	retry   time.Duration   // wait after a failed poll
	burst   []time.Duration // re-polls after a signal or a batch; empty: none
	misses  int             // empty polls since the last signal or batch
}

func newGate(db *sql.DB, signals, stop <-chan struct{}, idle, retry time.Duration, burst []time.Duration) *gate {
	return &gate{DB: db, signals: signals, stop: stop, idle: idle, retry: retry, burst: burst}
}

// HandleError implements wsql.BackoffManager: the waiting happens in BeginTx.
func (g *gate) HandleError(logger wm.LoggerAdapter, noMsg bool, err error) time.Duration {
	switch {
	case err != nil && (errors.Is(err, context.Canceled) || isStopped(g.stop)):
		return 0 // stopping: the subscriber notices its close at once
	case err != nil:
		logger.Error("Error querying for message", err, wm.LogFields{"wait_time": g.retry})
		return g.retry
	case noMsg:
		g.misses++
	default:
		g.misses = 0
	}
	return 0
}

// BeginTx implements wsql.Beginner: it waits as the last polls warrant, then begins.
func (g *gate) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	g.wait(ctx)
	return g.DB.BeginTx(ctx, opts)
}

func isStopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

func (g *gate) wait(ctx context.Context) {
	if g.misses == 0 {
		return
	}
	d := g.idle
	if g.misses <= len(g.burst) {
		d = g.burst[g.misses-1]
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-g.signals:
		g.misses = 0
	case <-t.C: // a burst step, or the safety poll: misses stays, so an empty poll sleeps again
	case <-g.stop:
	case <-ctx.Done():
	}
}
