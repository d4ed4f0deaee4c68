package router

import (
	"context"

	"github.com/ThreeDotsLabs/watermill/message"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/application/events"
)

// TraceWith makes each event a consumer applies a span of tracer (nil: none).
func (r *Router) TraceWith(tracer trace.Tracer) *Router {
	r.tracer = tracer
	return r
}

// traced continues the trace of the request that published msg (its traceparent) in
// ctx: with a tracer, a consumer span, child of the publish; without one, the publisher's
// context alone, so that what the consumer writes (a webhook delivery) carries it on. On
// the SQL transport the events of one batch share a transaction but each event's span
// belongs to its own trace (a batch mixing requests mixes no traces).
func (r *Router) traced(ctx context.Context, c events.Consumer, msg *message.Message) (context.Context, func(error)) {
	parent := observe.RemoteSpanContext(msg.Metadata.Get(eventbus.MetaTraceParent))
	if parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, parent)
	}
	if r.tracer == nil {
		return ctx, func(error) {}
	}
	ctx, span := r.tracer.Start(ctx, "consume "+c.Name, trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(attribute.String("messaging.destination.name", eventbus.Topic),
			attribute.String("messaging.consumer.group.name", c.Name), attribute.String("messaging.message.id", msg.UUID),
			attribute.String("creatorapi.event_type", msg.Metadata.Get(eventbus.MetaType))))
	return ctx, func(err error) {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "consumer failed")
		}
		span.End()
	}
}
