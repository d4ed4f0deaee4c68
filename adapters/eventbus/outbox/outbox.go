package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/ThreeDotsLabs/watermill"
	wsql "github.com/ThreeDotsLabs/watermill-sql/v3/pkg/sql"
	"github.com/ThreeDotsLabs/watermill/message"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/schema"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
)

// Outbox publishes events on the transaction in the context: they commit or vanish
// with the change that caused them.
type Outbox struct {
	db     *sqldb.DB
	schema wsql.SchemaAdapter
	ids    platform.IDs
	clock  platform.Clock
	logger watermill.LoggerAdapter
	wake   *wakeup.Wakeup   // nil: subscribers find events by their slow poll only
	notify *wakeup.Notifier // PostgreSQL: other instances' wakeups, after the commit
	inline []events.Consumer
	tracer trace.Tracer // nil: the trace context is stored, no span recorded
}

// TraceWith makes each publish a producer span of tracer (nil: none).
func (o *Outbox) TraceWith(tracer trace.Tracer) *Outbox {
	o.tracer = tracer
	return o
}

// RunInline makes Publish run cs in the publishing transaction, after the insert
// (events.Consumer.Inline): what they write commits or vanishes with the event.
func (o *Outbox) RunInline(cs []events.Consumer) { o.inline = append(o.inline, cs...) }

// New builds the outbox of db.
func New(db *sqldb.DB, ids platform.IDs, clock platform.Clock, logger watermill.LoggerAdapter) *Outbox {
	return &Outbox{db: db, schema: schema.For(db.Dialect), ids: ids, clock: clock, logger: logger}
}

// SignalCommits makes the outbox wake w's subscribers when a transaction that published
// commits; on PostgreSQL it also notifies NotifyChannel after that commit (wakeup.Notifier),
// which wakes the subscribers of other instances (see Listener).
func (o *Outbox) SignalCommits(w *wakeup.Wakeup) *Outbox {
	o.wake = w
	if o.db.Dialect == sqldb.Postgres {
		o.notify = wakeup.NewNotifier(o.db.Writer.DB, w.Instance(), o.logger)
	}
	return o
}

// Drain waits until the notifications of the commits so far went out (the app's stop).
func (o *Outbox) Drain(ctx context.Context) error {
	if o.notify == nil {
		return nil
	}
	return o.notify.Wait(ctx)
}

// ErrNoTransaction reports a publish outside WithinTx: an event must never outlive a rollback.
var ErrNoTransaction = errors.New("outbox: publish outside a transaction")

// Publish stamps each event with an evt_ id and the time, and inserts it in the outbox.
// A publish costs one round trip inside the caller's transaction; the cross-instance
// notification follows the commit (signal).
//
// The trace context of ctx (the publish's span, or the request's context when nothing
// records spans) goes in each event's metadata (traceparent), in the same insert: the
// consumers and the webhooks it causes continue the trace.
func (o *Outbox) Publish(ctx context.Context, evs ...events.Event) (err error) {
	if len(evs) == 0 {
		return nil
	}
	tx, ok := sqldb.TxFromContext(ctx)
	if !ok {
		return ErrNoTransaction
	}
	if o.tracer != nil {
		var span trace.Span
		ctx, span = o.tracer.Start(ctx, "outbox publish", trace.WithSpanKind(trace.SpanKindProducer),
			trace.WithAttributes(attribute.String("messaging.destination.name", eventbus.Topic), attribute.Int("messaging.batch.message_count", len(evs))))
		defer func() {
			if err != nil {
				span.RecordError(err)
				span.SetStatus(codes.Error, "publish failed")
			}
			span.End()
		}()
	}
	traceparent := observe.TraceParent(ctx)
	msgs := make([]*message.Message, 0, len(evs))
	envs := make([]events.Envelope, 0, len(evs))
	for _, ev := range evs {
		msg, env, err := o.message(ev)
		if err != nil {
			return err
		}
		if traceparent != "" {
			msg.Metadata.Set(eventbus.MetaTraceParent, traceparent)
		}
		msgs, envs = append(msgs, msg), append(envs, env)
	}
	// watermill-sql's Publisher would run the same InsertQuery, but alone (and without ctx).
	insert, err := o.schema.InsertQuery(eventbus.Topic, msgs)
	if err != nil {
		return fmt.Errorf("outbox insert: %w", err)
	}
	stmt, args := o.signal(ctx, insert, partitionKeys(evs), eventTypes(evs))
	if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("outbox publish: %w", err)
	}
	for _, env := range envs {
		for _, c := range o.inline {
			if !c.Handles(env.Type) {
				continue
			}
			if err := c.Handle(ctx, env); err != nil {
				return fmt.Errorf("%s on %s: %w", c.Name, env.ID, err)
			}
		}
	}
	return nil
}

// partitionKeys lists the distinct partition keys of evs (usually one: a command changes
// one workspace).
func partitionKeys(evs []events.Event) []uint32 {
	keys := make([]uint32, 0, 1)
	for _, ev := range evs {
		k := events.PartitionKey(ev.WorkspaceID)
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// eventTypes lists the distinct types of evs.
func eventTypes(evs []events.Event) []events.Type {
	types := make([]events.Type, 0, 1)
	for _, ev := range evs {
		if !slices.Contains(types, ev.Type) {
			types = append(types, ev.Type)
		}
	}
	return types
}

// signal arranges the wakeups and returns the statement to run. A transaction with
// after-commit hooks (the API's) signals this instance's subscribers in-process with the
// types (Wakeup.NotifyEvents) and, on PostgreSQL, other instances through the Notifier,
// both after the commit: the insert runs alone. Inside a subscriber's transaction, whose
// commit fires no hook, PostgreSQL notifies in the insert's own statement (a
// data-modifying WITH runs whether or not the outer query reads it; PostgreSQL delivers
// the notification on commit and folds identical ones of a transaction into one).
func (o *Outbox) signal(ctx context.Context, insert wsql.Query, keys []uint32, types []events.Type) (string, []any) {
	if o.wake == nil {
		return insert.Query, insert.Args
	}
	if sqldb.AfterCommit(ctx, func() {
		o.wake.NotifyEvents(keys, types)
		if o.notify != nil {
			o.notify.Send(keys, types)
		}
	}) || o.db.Dialect != sqldb.Postgres {
		return insert.Query, insert.Args
	}
	n := len(insert.Args)
	stmt := fmt.Sprintf("WITH published AS (%s) SELECT pg_notify($%d, $%d)", insert.Query, n+1, n+2)
	return stmt, append(insert.Args, wakeup.NotifyChannel, wakeup.Notification("", keys, types...))
}

func (o *Outbox) message(ev events.Event) (*message.Message, events.Envelope, error) {
	data, err := json.Marshal(ev.Data)
	if err != nil {
		return nil, events.Envelope{}, fmt.Errorf("encode %s data: %w", ev.Type, err)
	}
	env := events.Envelope{
		ID: o.ids.New(events.IDPrefix), Type: ev.Type, CreatedAt: o.clock.Now(),
		WorkspaceID: ev.WorkspaceID, Data: data,
	}
	payload, err := json.Marshal(env)
	if err != nil {
		return nil, events.Envelope{}, fmt.Errorf("encode %s envelope: %w", ev.Type, err)
	}
	msg := message.NewMessage(env.ID, payload)
	msg.Metadata.Set(eventbus.MetaType, string(ev.Type))
	msg.Metadata.Set(eventbus.MetaWorkspaceID, ev.WorkspaceID)
	msg.Metadata.Set(eventbus.MetaVersion, strconv.Itoa(events.VersionOf(ev.Type)))
	return msg, env, nil
}
