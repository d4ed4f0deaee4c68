package sqldb

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
)

type txKey struct{}

// Querier is what repositories run statements on: the transaction in the context, or a pool.
type Querier interface {
	sqlx.ExtContext
	GetContext(ctx context.Context, dest any, query string, args ...any) error
	SelectContext(ctx context.Context, dest any, query string, args ...any) error
}

// TxFromContext returns the transaction WithinTx put in ctx.
func TxFromContext(ctx context.Context) (*sqlx.Tx, bool) {
	tx, ok := ctx.Value(txKey{}).(*sqlx.Tx)
	return tx, ok
}

// WithinTx runs fn in a transaction carried by ctx; a nested call joins the outer one.
// fn's error, or a panic, rolls back; otherwise it writes what fn deferred (Deferred),
// commits and reports a failure of either.
func (db *DB) WithinTx(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if _, ok := TxFromContext(ctx); ok {
		return fn(ctx)
	}
	ctx, end := db.traced(ctx)
	if end != nil {
		defer func() { end(err) }()
	}
	tx, err := db.Writer.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin transaction: %w", err)
	}
	hooks := &commitHooks{} // run after a successful commit only
	deferred := &deferredWrites{}
	defer func() {
		if p := recover(); p != nil {
			_ = tx.Rollback()
			panic(p)
		}
		if err != nil {
			if rerr := tx.Rollback(); rerr != nil && !errors.Is(rerr, context.Canceled) {
				err = errors.Join(err, fmt.Errorf("rollback: %w", rerr))
			}
			return
		}
		if ferr := deferred.flush(txCtx(ctx, tx, hooks, deferred)); ferr != nil {
			_ = tx.Rollback()
			err = fmt.Errorf("deferred writes: %w", ferr)
			return
		}
		if cerr := tx.Commit(); cerr != nil {
			err = fmt.Errorf("commit: %w", cerr)
			return
		}
		hooks.run()
	}()
	return fn(txCtx(ctx, tx, hooks, deferred))
}

func txCtx(ctx context.Context, tx *sqlx.Tx, hooks *commitHooks, deferred *deferredWrites) context.Context {
	return context.WithValue(context.WithValue(context.WithValue(ctx, txKey{}, tx), hooksKey{}, hooks), deferredKey{}, deferred)
}

// Write returns the transaction in ctx or the writer pool.
func (db *DB) Write(ctx context.Context) Querier {
	if tx, ok := TxFromContext(ctx); ok {
		return tx
	}
	return db.Writer
}

// Read returns the transaction in ctx (so a use case reads its own writes) or the reader pool.
func (db *DB) Read(ctx context.Context) Querier {
	if tx, ok := TxFromContext(ctx); ok {
		return tx
	}
	return db.reads
}

// Rebind turns '?' placeholders into the dialect's; call it once per statement at construction.
func (db *DB) Rebind(query string) string { return db.Writer.Rebind(query) }
