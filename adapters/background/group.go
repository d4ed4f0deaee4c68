package background

import (
	"context"
	"errors"
	"fmt"
)

// Worker is one piece of background work.
type Worker interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
}

// Named gives a worker the name its errors and the tests know it by.
type Named struct {
	Name string
	Worker
}

// Group is workers in start order; they stop in the reverse order, so a worker may rely
// on every worker started before it while it runs and while it stops.
type Group []Named

// Start starts the workers in order. When one fails, those already started are stopped
// (in reverse) and the error names the one that failed.
func (g Group) Start(ctx context.Context) error {
	for i, w := range g {
		if err := w.Start(ctx); err != nil {
			return errors.Join(fmt.Errorf("start %s: %w", w.Name, err), g[:i].Stop(ctx))
		}
	}
	return nil
}

// Stop stops every worker, the last started first, and joins their errors.
func (g Group) Stop(ctx context.Context) error {
	var errs []error
	for i := len(g) - 1; i >= 0; i-- {
		if err := g[i].Stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stop %s: %w", g[i].Name, err))
		}
	}
	return errors.Join(errs...)
}

// Names lists the workers in start order.
func (g Group) Names() []string {
	out := make([]string, len(g))
	for i, w := range g {
		out[i] = w.Name
	}
	return out
}
