package sqltransport

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/ThreeDotsLabs/watermill"

	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// gate makes a wsql.Subscriber sleep until it is woken instead of polling fast.
// watermill-sql v3.1.0 only sleeps between polls for what its BackoffManager returns, and
// begins each poll with Beginner.BeginTx: the gate is both. It returns no backoff, and
// blocks in BeginTx after an empty poll until a wakeup signal, the slow safety poll, or
// stop. After a signal or a delivered batch it re-polls a few times at short, growing
// intervals before sleeping again: on PostgreSQL a committed event stays invisible while
// an older transaction (say another consumer's batch) is still open. Before that burst it
// asks pending (when set) whether any committed event lies beyond the group's position at
// all: usually none does, and the burst, five transactions per consumer per wakeup, is
// skipped.
//
// HandleError and BeginTx run on the subscriber's single consume goroutine (and on the
// Subscribe call before it), so the gate's state needs no lock.
type gate struct {
	*sql.DB // the ContextExecutor part of wsql.Beginner
	signals <-chan struct{}
	// lazy signals commits of events the consumer does not take: a poll within idle moves
	// the position past them (one poll for all of them, instead of one per commit).
	lazy    <-chan struct{}
	stop    <-chan struct{}
	idle    time.Duration   // safety poll when nothing signals
	retry   time.Duration   // wait after a failed poll
	burst   []time.Duration // re-polls after a signal or a batch; empty: none
	pending func(context.Context) (bool, error)
	// idleCheck, when set, asks pending's question for a caught-up gate's safety check,
	// batched with the instance's other parts (pendingBatch).
	idleCheck func(context.Context) (bool, error)
	hooks     *sqldb.CommitHooks // what the batch's handlers asked to run after its commit
	// savepoint tracks the router's savepoint in the batch transaction (a new one per BeginTx).
	savepoint *batchtx.Savepoint
	tx        *sql.Tx // the batch transaction, for its deferred writes (flushingOffsets)
	// abort says the batch transaction must roll back and its events come again (batchtx.Abort).
	abort *batchtx.Abort
	batch int // the subscriber's batch size
	rows  int // rows of the last poll (countingSchema)
	// heldBack: the last poll's rows said that events beyond the position were held back
	// (schema.Postgres.HeldBack; false when the poll returned no row).
	heldBack bool
	misses   int // empty polls since the last signal or batch
	// asyncCommit: batch transactions commit without waiting for the WAL flush
	// (PostgreSQL; asyncCommitFirst).
	asyncCommit bool
	// caughtUp: the last pending check found nothing beyond the position, held back or
	// not, so only a commit, which signals, can bring more: the safety poll asks again
	// instead of polling.
	caughtUp bool
	// lazyPoll: the coming poll was started by a lazy signal (or the rest after one), not
	// by a signal of events the consumer takes; lazyRest: such a poll read all it could,
	// so the next waits for the safety poll. Why: under steady load something new or held
	// back always lies beyond the position, so the burst and the held-back polls after a
	// lazy poll became a poll per commit, what a lazy signal exists to avoid.
	lazyPoll, lazyRest bool
}

// newGate builds a gate; pending, which may be nil, tells whether committed events lie
// beyond the group's position (visible or still held back).
func newGate(db *sql.DB, signals, stop <-chan struct{}, idle, retry time.Duration, burst []time.Duration, batch int, pending func(context.Context) (bool, error)) *gate {
	return &gate{DB: db, signals: signals, stop: stop, idle: idle, retry: retry, burst: burst, batch: batch, pending: pending, hooks: &sqldb.CommitHooks{}}
}

// HandleError implements wsql.BackoffManager: the waiting happens in BeginTx. The
// subscriber calls it after each poll's transaction ended: committed when err is nil
// (watermill-sql only logs a failed commit), rolled back otherwise. So it runs the
// batch's after-commit hooks (wakeups of the dispatcher and of subscribers), or drops them.
func (g *gate) HandleError(logger watermill.LoggerAdapter, noMsg bool, err error) time.Duration {
	if err != nil {
		g.hooks.Discard()
	} else {
		g.hooks.Run()
	}
	rows, heldBack, lazyPoll := g.rows, g.heldBack, g.lazyPoll
	g.rows, g.heldBack, g.lazyPoll = 0, false, false
	aborted := g.abort != nil && g.abort.Err != nil
	switch {
	case err != nil && (errors.Is(err, context.Canceled) || isStopped(g.stop)):
		return 0 // stopping: the subscriber notices its close at once
	case err != nil && aborted:
		// Rolled back on purpose (batchtx.Abort): poll again soon, in a new transaction (a short
		// wait, so that a failure that recurs does not spin).
		g.misses = 0
		return batchtx.AbortedWait
	case err != nil:
		logger.Error("Error querying for message", err, watermill.LogFields{"wait_time": g.retry})
		return g.retry
	case lazyPoll && (noMsg || rows < g.batch):
		// What is left (held back, or committed since) can wait for the safety poll, where
		// one transaction takes it all; a signal of a type the consumer takes wakes it sooner.
		g.misses, g.caughtUp, g.lazyRest = len(g.burst)+1, false, true
	case noMsg:
		g.misses++
	case rows < g.batch && g.pending != nil && !heldBack:
		// A partial batch whose poll saw nothing held back beyond the position: what
		// commits later signals (a commit after the poll's snapshot, or one in flight at
		// that time, signals after it, and the signal waits in its slot), so the gate is
		// caught up without asking the pending question in a round trip of its own.
		g.caughtUp, g.misses = true, len(g.burst)+1
	case rows < g.batch:
		// A partial batch read all that was visible: like an empty poll, wait for a signal
		// (after checking, on PostgreSQL, that nothing is held back) instead of polling.
		g.misses = 1
	default:
		g.misses = 0
		g.lazyPoll = lazyPoll // a full batch: poll on at once, as lazily
	}
	return 0
}

// BeginTx implements wsql.Beginner: it waits as the last polls warrant, then begins.
func (g *gate) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	g.wait(ctx)
	g.savepoint = &batchtx.Savepoint{AsyncCommit: g.asyncCommit}
	g.abort = &batchtx.Abort{}
	tx, err := g.DB.BeginTx(ctx, opts)
	g.tx = tx
	return tx, err
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
	if g.lazyRest {
		g.lazyRest = false
		if !g.sleep(ctx, g.idle) {
			g.lazyPoll = true // the safety poll: as lazy as the poll before it
		}
		return
	}
	if g.misses == 1 && len(g.burst) > 0 && g.pending != nil {
		// Nothing beyond the position, held back or not: any later commit signals, so sleep
		// until then. (A failed check keeps the burst: it costs polls, never an event.)
		g.check(ctx, g.pending)
	}
	for {
		d := g.idle
		switch {
		case g.misses <= len(g.burst):
			d = g.burst[g.misses-1]
		case !g.caughtUp && g.pending != nil && !g.check(ctx, g.pending):
			// The burst is spent and events still lie beyond the position, held back by an
			// older open transaction (or the check failed): no commit will signal when that
			// transaction ends, so keep looking, backing off to heldBackCap, rather than
			// leaving them to the safety poll (a minute, if so configured).
			d = g.heldBackWait()
		case g.caughtUp && g.idleCheck != nil:
			// On the next whole second, with the instance's other caught-up parts.
			now := time.Now()
			d = now.Truncate(g.idle).Add(g.idle).Sub(now)
		}
		if g.sleep(ctx, d) || !g.caughtUp {
			return // woken, or a burst step or the safety poll: poll
		}
		// Caught up at the last look: the safety poll asks the pending question instead
		// (an index probe; a poll is a transaction that locks the offsets row, so takes a
		// transaction id and a WAL flush at commit) and polls only when something lies
		// beyond the position (a commit whose signal did not come, say).
		check := g.idleCheck
		if check == nil {
			check = g.pending
		}
		if !g.check(ctx, check) {
			return
		}
	}
}

// heldBackCap bounds the wait between polls while events are known to be held back.
const heldBackCap = time.Second

// heldBackWait is the wait before the next poll once the burst is spent and events are
// still held back: the burst's last step, doubling with each empty poll, at most
// heldBackCap (and the safety poll).
func (g *gate) heldBackWait() time.Duration {
	if len(g.burst) == 0 {
		return min(heldBackCap, g.idle)
	}
	d := g.burst[len(g.burst)-1]
	for range g.misses - len(g.burst) {
		if d >= heldBackCap {
			break
		}
		d *= 2
	}
	return min(d, heldBackCap, g.idle)
}

// check asks whether anything lies beyond the position and notes the answer: caught up
// (nothing, held back or not) skips the burst. It reports caughtUp.
func (g *gate) check(ctx context.Context, pending func(context.Context) (bool, error)) bool {
	p, err := pending(ctx)
	if g.caughtUp = err == nil && !p; g.caughtUp {
		g.misses = len(g.burst) + 1
	}
	return g.caughtUp
}

// sleep waits d and reports whether something woke the gate before: a signal (the next
// poll comes at once), a lazy signal (a poll within idle), or stop.
func (g *gate) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-g.signals:
	case <-g.lazy:
		lt := time.NewTimer(g.idle)
		defer lt.Stop()
		g.lazyPoll = true
		select {
		case <-g.signals:
			g.lazyPoll = false
		case <-lt.C:
		case <-t.C:
		case <-g.stop:
		case <-ctx.Done():
		}
	case <-t.C: // a burst step, or the safety poll: misses stays, so an empty poll sleeps again
		return false
	case <-g.stop:
	case <-ctx.Done():
	}
	g.misses = 0
	g.caughtUp = false
	return true
}
