package idempotency

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Application is the module's use cases.
type Application struct {
	// Run runs a request once per key in one transaction, or replays its stored answer.
	Run platform.Handler[Request, Outcome]
	// Purge deletes the records past the window, in batches; it answers how many.
	Purge PurgeHandler
}

// PurgeHandler is the background purge: batches of PurgeBatch, each in its own
// transaction, until the records past the window are gone.
type PurgeHandler struct {
	clock platform.Clock
	batch platform.Handler[time.Time, int]
}

// Handle deletes the records created more than Window ago and answers how many.
func (h PurgeHandler) Handle(ctx context.Context) (int, error) {
	cutoff, total := h.clock.Now().Add(-Window), 0
	for {
		n, err := h.batch.Handle(ctx, cutoff)
		total += n
		if err != nil || n < PurgeBatch {
			return total, err
		}
	}
}

// Deps are the ports the use cases take.
type Deps struct {
	platform.Kit
	Store Store
}

// New wires the use cases: Run in the one handler shape (its transaction is the one the
// request's change and events join), Purge as a loop of one-transaction batches.
func New(kit platform.Kit, store Store) Application {
	d := Deps{Kit: kit, Store: store}
	return Application{
		Run:   platform.Command("idempotent request", d.Tx, d.Observer, d.Run),
		Purge: PurgeHandler{clock: d.Clock, batch: platform.Command("purge idempotency records", d.Tx, d.Observer, d.purgeBatch)},
	}
}

func (d Deps) purgeBatch(ctx context.Context, cutoff time.Time) (int, error) {
	return d.Store.Purge(ctx, cutoff, PurgeBatch)
}
