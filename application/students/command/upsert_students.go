package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// MaxBatch is how many items one POST /students/batch may carry.
const MaxBatch = 100

// UpsertStudents is a CRM sync's batch: items applied in order, each in a transaction
// of its own, so that one bad item does not sink the rest.
type UpsertStudents struct {
	Items []UpsertStudent
}

// ItemResult is what became of one item: Err is the item's own failure (a kernel
// error: invalid input, a student of another workspace...), Upserted otherwise.
type ItemResult struct {
	Upserted
	Err error
}

// Batch runs a batch's items through the one-item use case, each item decorated in the
// handler shape (its own transaction, its own observation). It has no transaction of
// its own.
type Batch struct {
	Item platform.Handler[UpsertStudent, Upserted]
}

// UpsertStudents returns one result per item, in input order. A fault (the database
// gone, the request cancelled) stops the batch with an error: the items before it are
// committed, and since each item is an upsert, sending the batch again is safe (they
// answer unchanged).
func (b Batch) UpsertStudents(ctx context.Context, cmd UpsertStudents) ([]ItemResult, error) {
	if len(cmd.Items) > MaxBatch {
		return nil, kernel.Invalid("items", "items must hold at most %d students", MaxBatch)
	}
	out := make([]ItemResult, len(cmd.Items))
	for i, item := range cmd.Items {
		res, err := b.Item.Handle(ctx, item)
		if err != nil && kernel.KindOf(err) == 0 {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out[i] = ItemResult{Upserted: res, Err: err}
	}
	return out, nil
}
