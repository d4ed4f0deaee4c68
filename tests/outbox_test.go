package tests

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// failingAfterPublish records events in the real outbox, then fails the use case when
// armed: the transaction must roll back the change and the events together.
type failingAfterPublish struct {
	next  platform.Publisher
	armed *atomic.Bool
}

func (p failingAfterPublish) Publish(ctx context.Context, evs ...events.Event) error {
	if err := p.next.Publish(ctx, evs...); err != nil {
		return err
	}
	if p.armed.Load() {
		return errors.New("injected failure after publishing")
	}
	return nil
}

func TestOutboxCommitsAndRollsBackWithTheChange(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		armed := &atomic.Bool{}
		var pub platform.Publisher
		var tx platform.Transactor
		env := testenv.Start(t, dbURL,
			fx.Decorate(func(p platform.Publisher) platform.Publisher { return failingAfterPublish{next: p, armed: armed} }),
			fx.Populate(&pub, &tx),
		)
		ws := env.CreateWorkspace(t, "Academy")
		course := env.CreateCourse(t, ws, "Rollback 101")
		publish := fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/publish", ws, course)

		// A use case that fails after publishing leaves neither the change nor the event.
		armed.Store(true)
		env.Admin().Post(t, publish, nil).ExpectError(t, http.StatusInternalServerError, "internal_error")
		if evs := env.OutboxEvents(t); len(evs) != 0 {
			t.Fatalf("rolled-back command left %d events", len(evs))
		}
		var c courseJSON
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s", ws, course)).Decode(t, &c)
		if c.Status != "draft" {
			t.Fatalf("rolled-back publish changed the course to %s", c.Status)
		}

		// The same command committed leaves exactly its event.
		armed.Store(false)
		env.Admin().Post(t, publish, nil).Expect(t, http.StatusOK)
		evs := env.OutboxEvents(t)
		if diff := cmp.Diff([]events.Type{events.CoursePublished}, eventTypes(evs)); diff != "" {
			t.Fatalf("committed command left (-want +got):\n%s", diff)
		}

		// Directly on the transactor: many events commit together or not at all.
		ctx := context.Background()
		batch := []events.Event{events.New(events.StudentCreated, ws, map[string]string{"id": "stu_1"}), events.New(events.StudentUpdated, ws, map[string]string{"id": "stu_1"})}
		err := tx.WithinTx(ctx, func(ctx context.Context) error {
			if err := pub.Publish(ctx, batch...); err != nil {
				return err
			}
			return errors.New("roll back")
		})
		if err == nil || len(env.OutboxEvents(t)) != 1 {
			t.Fatalf("rollback: err %v, outbox %d events", err, len(env.OutboxEvents(t)))
		}
		if err := tx.WithinTx(ctx, func(ctx context.Context) error { return pub.Publish(ctx, batch...) }); err != nil {
			t.Fatal(err)
		}
		evs = env.OutboxEvents(t)
		if diff := cmp.Diff([]events.Type{events.CoursePublished, events.StudentCreated, events.StudentUpdated}, eventTypes(evs)); diff != "" {
			t.Fatalf("commit: outbox (-want +got):\n%s", diff)
		}
		if evs[1].ID == evs[2].ID {
			t.Fatalf("two events of one batch share the id %s", evs[1].ID)
		}

		// Publishing outside a transaction is refused: an event must never outlive a rollback.
		if err := pub.Publish(ctx, batch...); !errors.Is(err, outbox.ErrNoTransaction) {
			t.Fatalf("publish outside a transaction: %v", err)
		}
	})
}

// eventTypes lists the events' types in stream order.
func eventTypes(evs []events.Envelope) []events.Type {
	var types []events.Type
	for _, ev := range evs {
		types = append(types, ev.Type)
	}
	return types
}
