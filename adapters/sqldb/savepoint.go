package sqldb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync/atomic"
)

// savepointSeq names savepoints uniquely, so that they may nest.
var savepointSeq atomic.Uint64

// WithinSavepoint runs fn so that its error undoes only fn's own writes: inside the
// transaction in ctx it runs under a savepoint (rolled back to on error, released
// otherwise, its deferred writes following it); without one it is WithinTx. A batch
// whose items must fail alone uses it, whether or not a caller (an Idempotency-Key's
// record) holds the transaction around the whole batch. On PostgreSQL a failed statement
// aborts the whole transaction; the savepoint is what lets the next item run.
func (db *DB) WithinSavepoint(ctx context.Context, fn func(ctx context.Context) error) error {
	tx, ok := TxFromContext(ctx)
	if !ok {
		return db.WithinTx(ctx, fn)
	}
	name := "item_" + strconv.FormatUint(savepointSeq.Add(1), 10)
	if _, err := tx.ExecContext(ctx, "SAVEPOINT "+name); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	mark := DeferredMark(ctx)
	if err := fn(ctx); err != nil {
		DeferredRollback(ctx, mark)
		// ROLLBACK TO keeps the savepoint: release it too, so that items do not nest.
		for _, stmt := range []string{"ROLLBACK TO SAVEPOINT ", "RELEASE SAVEPOINT "} {
			if _, rbErr := tx.ExecContext(ctx, stmt+name); rbErr != nil {
				return errors.Join(err, fmt.Errorf("roll back to savepoint: %w", rbErr))
			}
		}
		return err
	}
	if _, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT "+name); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}
