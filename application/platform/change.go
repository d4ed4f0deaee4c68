package platform

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
)

// Store is the part of a module's repository that changes one existing aggregate: Get
// (NotFound outside the workspace; SQL adapters lock the row for the transaction) and
// Update. The domain repositories of courses, students, enrollments, orders and live
// sessions satisfy it as they are.
type Store[A any] interface {
	Get(ctx context.Context, workspaceID, id string) (A, error)
	Update(ctx context.Context, a A) error
}

// ChangeIf is the load, change and save of a command on an existing aggregate. The
// command's own rule is change, which reports whether it changed anything: an
// idempotent repeat (revoking a revoked enrollment) reports false and nothing is saved.
// On an error the aggregate may be the zero value.
func ChangeIf[A any](ctx context.Context, s Store[A], workspaceID, id string, change func(A) (bool, error)) (A, bool, error) {
	a, err := s.Get(ctx, workspaceID, id)
	if err != nil {
		return a, false, err
	}
	changed, err := change(a)
	if err != nil || !changed {
		return a, false, err
	}
	return a, true, s.Update(ctx, a)
}

// Change is ChangeIf for a change that always changes the aggregate or fails.
func Change[A any](ctx context.Context, s Store[A], workspaceID, id string, change func(A) error) (A, error) {
	a, _, err := ChangeIf(ctx, s, workspaceID, id, func(a A) (bool, error) { return true, change(a) })
	return a, err
}

// Lifecycle is how the commands of a module take its aggregates through the steps of
// their life cycle (publish a course, start a live session): the store, and how the API
// and the step's event show an aggregate.
type Lifecycle[A, P any] struct {
	Kit
	Store Store[A]
	View  func(A) P
}

// Step loads the aggregate, applies step at the clock's now (the domain refuses a step
// its state does not allow), saves it and publishes the event of contract c with the
// aggregate as View shows it: the change and its event commit together.
func (l Lifecycle[A, P]) Step(ctx context.Context, workspaceID, id string, step func(A, time.Time) error,
	c events.Contract[P]) (P, error) {
	now := l.Clock.Now()
	a, err := Change(ctx, l.Store, workspaceID, id, func(a A) error { return step(a, now) })
	if err != nil {
		var zero P
		return zero, err
	}
	out := l.View(a)
	return out, l.Publisher.Publish(ctx, c.New(workspaceID, out))
}
