package sqldb

import (
	"context"
	"database/sql"
	"sync"

	"github.com/jmoiron/sqlx"
)

type hooksKey struct{}

// commitHooks collects what must run once the outermost WithinTx has committed.
type commitHooks struct {
	mu  sync.Mutex
	fns []func()
}

func (h *commitHooks) run() {
	h.mu.Lock()
	fns := h.fns
	h.fns = nil
	h.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// AfterCommit runs fn once the transaction WithinTx put in ctx has committed, and never
// after a rollback. It reports false (and drops fn) when ctx carries no such transaction,
// for example inside a subscriber's transaction, whose commit this package does not see.
func AfterCommit(ctx context.Context, fn func()) bool {
	h, ok := ctx.Value(hooksKey{}).(*commitHooks)
	if !ok {
		return false
	}
	h.mu.Lock()
	h.fns = append(h.fns, fn)
	h.mu.Unlock()
	return true
}

// CommitHooks collects the AfterCommit functions and the Deferred writes of a transaction
// this package does not commit (a watermill subscriber's batch): its owner flushes the
// writes just before the commit, runs the functions once it has committed, or discards
// both after a rollback.
type CommitHooks struct {
	h commitHooks
	d deferredWrites
}

// Context makes AfterCommit and Deferred.Add calls under ctx register with c.
func (c *CommitHooks) Context(ctx context.Context) context.Context {
	return context.WithValue(context.WithValue(ctx, hooksKey{}, &c.h), deferredKey{}, &c.d)
}

// Flush writes and forgets the deferred items, in the transaction of ctx: call it
// before the commit. What the writes register with AfterCommit runs with the others.
func (c *CommitHooks) Flush(ctx context.Context) error {
	return c.d.flush(context.WithValue(ctx, hooksKey{}, &c.h))
}

// Run runs and forgets what was registered: call it after the commit.
func (c *CommitHooks) Run() {
	c.d.discard() // flushed before the commit, or nothing to keep
	c.h.run()
}

// Discard forgets what was registered: call it after a rollback.
func (c *CommitHooks) Discard() {
	c.d.discard()
	c.h.mu.Lock()
	c.h.fns = nil
	c.h.mu.Unlock()
}

// WithTx carries a transaction begun elsewhere (a watermill subscriber's) in ctx, so that
// repositories using Write/Read join it and their writes commit with it.
func (db *DB) WithTx(ctx context.Context, tx *sql.Tx) context.Context {
	return context.WithValue(ctx, txKey{}, &sqlx.Tx{Tx: tx, Mapper: db.Writer.Mapper})
}
