package sqldb

import (
	"context"
	"sync"
)

// Deferred collects writes that a transaction makes once, just before it commits, instead
// of one statement each: a projection's additive counters, say, folded per batch of events.
// Items follow the transaction's savepoints through DeferredMark and DeferredRollback, so
// that an attempt rolled back to its savepoint takes its items back too.
type Deferred[T any] struct {
	flush func(ctx context.Context, items []T) error
}

// NewDeferred returns a Deferred whose items flush writes, in the transaction of ctx,
// in the order they were added.
func NewDeferred[T any](flush func(ctx context.Context, items []T) error) *Deferred[T] {
	return &Deferred[T]{flush: flush}
}

// Add defers item to the commit of the transaction in ctx. It reports false when ctx
// carries no transaction that flushes deferred writes (the caller then writes at once).
func (d *Deferred[T]) Add(ctx context.Context, item T) bool {
	w, ok := ctx.Value(deferredKey{}).(*deferredWrites)
	if !ok {
		return false
	}
	w.mu.Lock()
	w.log = append(w.log, deferredItem{owner: d, item: item})
	w.mu.Unlock()
	return true
}

func (d *Deferred[T]) flushItems(ctx context.Context, items []any) error {
	typed := make([]T, len(items))
	for i, it := range items {
		typed[i] = it.(T)
	}
	return d.flush(ctx, typed)
}

type deferredKey struct{}

type deferredOwner interface {
	flushItems(ctx context.Context, items []any) error
}

type deferredItem struct {
	owner deferredOwner
	item  any
}

// deferredWrites is a transaction's deferred items, in the order added.
type deferredWrites struct {
	mu  sync.Mutex
	log []deferredItem
}

// flush writes and forgets every item, each owner's in one call, owners in the order of
// their first item.
func (w *deferredWrites) flush(ctx context.Context) error {
	w.mu.Lock()
	log := w.log
	w.log = nil
	w.mu.Unlock()
	var owners []deferredOwner
	byOwner := map[deferredOwner][]any{}
	for _, it := range log {
		if _, seen := byOwner[it.owner]; !seen {
			owners = append(owners, it.owner)
		}
		byOwner[it.owner] = append(byOwner[it.owner], it.item)
	}
	for _, o := range owners {
		if err := o.flushItems(ctx, byOwner[o]); err != nil {
			return err
		}
	}
	return nil
}

func (w *deferredWrites) discard() {
	w.mu.Lock()
	w.log = nil
	w.mu.Unlock()
}

// DeferredMark notes how many items the transaction in ctx has deferred, for
// DeferredRollback; take it with the savepoint. -1 when ctx defers nothing.
func DeferredMark(ctx context.Context) int {
	w, ok := ctx.Value(deferredKey{}).(*deferredWrites)
	if !ok {
		return -1
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.log)
}

// DeferredRollback forgets the items deferred since mark: call it with ROLLBACK TO the
// savepoint taken with the mark.
func DeferredRollback(ctx context.Context, mark int) {
	w, ok := ctx.Value(deferredKey{}).(*deferredWrites)
	if !ok || mark < 0 {
		return
	}
	w.mu.Lock()
	if mark < len(w.log) {
		w.log = w.log[:mark]
	}
	w.mu.Unlock()
}

// FlushDeferred writes the items deferred so far in the transaction of ctx, now: a long
// transaction (a projection's rebuild) bounds its memory so. Nothing without one.
func FlushDeferred(ctx context.Context) error {
	w, ok := ctx.Value(deferredKey{}).(*deferredWrites)
	if !ok {
		return nil
	}
	return w.flush(ctx)
}
