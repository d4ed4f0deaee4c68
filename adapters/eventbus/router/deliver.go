package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/internal/batchtx"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
)

// savepoint isolates one attempt inside the subscriber's batch transaction: a failed
// attempt is rolled back alone (a Nack would not roll anything back, and on PostgreSQL a
// failed statement would poison the whole batch).
const savepoint = "consumer_event"

// deliver applies the message to c in the transaction of ctx: up to attempts tries with
// exponential backoff, then the event is parked and acknowledged so the stream goes on.
// It returns an error (Nack, redelivery) only when the database itself fails.
func (r *Router) deliver(ctx context.Context, c events.Consumer, msg *message.Message) error {
	var ev events.Envelope
	if err := json.Unmarshal(msg.Payload, &ev); err != nil {
		ev = events.Envelope{ID: msg.UUID, Type: events.Type(msg.Metadata.Get(eventbus.MetaType))}
		return r.park(ctx, c, ev, msg.Payload, fmt.Errorf("decode envelope: %w", err), 1)
	}
	if !c.Handles(ev.Type) {
		return nil // not this consumer's: acknowledged, no savepoint, no ledger row
	}
	delay := r.cfg.Backoff
	for attempt := 1; ; attempt++ {
		err := r.attempt(ctx, c, ev)
		if err == nil {
			return nil
		}
		var dbErr savepointError
		if errors.As(err, &dbErr) || ctx.Err() != nil || sqldb.IsSerializationFailure(err) {
			// Stopping, past the ack deadline, or the transaction is broken or conflicted
			// with another (in its snapshot a retry would fail alike): the event comes again
			// in a new transaction (the SQL transport's handler aborts the batch, batchtx.Abort;
			// a broker redelivers the nacked message).
			return err
		}
		if attempt >= r.cfg.Attempts {
			return r.park(ctx, c, ev, msg.Payload, err, attempt)
		}
		r.logger.Info("consumer failed, retrying", map[string]any{"consumer": c.Name, "event_id": ev.ID, "attempt": attempt, "error": err.Error()})
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return ctx.Err()
		}
		delay *= 2
	}
}

// savepointError is a failure of the transaction itself, not of the consumer.
type savepointError struct{ err error }

func (e savepointError) Error() string { return e.err.Error() }
func (e savepointError) Unwrap() error { return e.err }

func (r *Router) attempt(ctx context.Context, c events.Consumer, ev events.Envelope) error {
	q := r.db.Write(ctx)
	open, keep := batchtx.SavepointFrom(ctx)
	releasePrevious := keep && open.Open
	if keep {
		open.Open = false
	}
	mark := sqldb.DeferredMark(ctx) // the attempt's deferred writes go with its savepoint
	async := keep && open.AsyncCommit && !open.AsyncSet
	if async {
		open.AsyncSet = true // SET LOCAL lasts for the transaction, savepoints or not
	}
	if _, err := r.ledger.enterAttempt(ctx, c, ev, releasePrevious, async); err != nil {
		var dbErr savepointError
		if errors.As(err, &dbErr) {
			return err
		}
		sqldb.DeferredRollback(ctx, mark)
		// ROLLBACK TO keeps the savepoint: release it too, so attempts do not nest.
		for _, stmt := range []string{"ROLLBACK TO SAVEPOINT ", "RELEASE SAVEPOINT "} {
			if _, rbErr := q.ExecContext(ctx, stmt+savepoint); rbErr != nil {
				return savepointError{fmt.Errorf("roll back attempt after %v: %w", err, rbErr)}
			}
		}
		return err
	}
	if keep && r.db.Dialect == sqldb.Postgres {
		// Left open: the next event's round trip releases it, or the commit does.
		open.Open = true
		return nil
	}
	if _, err := q.ExecContext(ctx, "RELEASE SAVEPOINT "+savepoint); err != nil {
		return savepointError{fmt.Errorf("release savepoint: %w", err)}
	}
	return nil
}

func (r *Router) park(ctx context.Context, c events.Consumer, ev events.Envelope, payload []byte, cause error, attempts int) error {
	r.logger.Error("consumer gave up, event parked", cause, map[string]any{"consumer": c.Name, "event_id": ev.ID, "attempts": attempts})
	if err := r.ledger.parkFailed(ctx, c.Name, ev, payload, cause, attempts); err != nil {
		return err
	}
	return nil
}
