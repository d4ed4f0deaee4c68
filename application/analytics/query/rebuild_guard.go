package query

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// RebuildSlack is how much older than the oldest outbox event a source fact may be
// without proving a gap: a use case reads the clock before the outbox stamps its event.
const RebuildSlack = time.Minute

// OutboxStart tells when the oldest event the outbox still holds was recorded (ok is
// false when it holds none).
type OutboxStart interface {
	FirstEventAt(ctx context.Context) (at time.Time, ok bool, err error)
}

// RebuildGuard is what the guard asks: the outbox, and each module whose facts the read
// model counts (sales, refunds, enrollments, lesson completions, new students) through
// its published "since when do your facts count".
type RebuildGuard struct {
	Outbox  OutboxStart
	Sources []platform.Handler[struct{}, platform.Earliest]
}

// CheckRebuild asks whether a rebuild of the read model from the outbox would count
// everything the modules hold.
type CheckRebuild struct{}

// CheckRebuild refuses a rebuild that would silently lose history: retention prunes
// consumed events, and a fact older than the oldest event left cannot be replayed.
func (r Reads) CheckRebuild(ctx context.Context, _ CheckRebuild) (struct{}, error) {
	var oldest platform.Earliest
	for _, h := range r.Guard.Sources {
		e, err := h.Handle(ctx, struct{}{})
		if err != nil {
			return struct{}{}, err
		}
		if e.OK {
			oldest.Consider(e.At)
		}
	}
	if !oldest.OK {
		return struct{}{}, nil
	}
	first, anyEvent, err := r.Guard.Outbox.FirstEventAt(ctx)
	if err != nil {
		return struct{}{}, fmt.Errorf("oldest outbox event: %w", err)
	}
	if !anyEvent || oldest.At.Before(first.Add(-RebuildSlack)) {
		return struct{}{}, fmt.Errorf("the outbox no longer holds the events of %s (oldest event left: %v): retention pruned them, "+
			"so a rebuild would undercount; keep the current read model, or pass --force to rebuild from what is left",
			oldest.At.Format(time.RFC3339), first.Format(time.RFC3339))
	}
	return struct{}{}, nil
}
