package webhooks

import (
	"context"
	"net/url"
	"strconv"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// TraceWith makes each attempt a client span of tracer (nil: none; the attempt still
// sends the trace context it continues).
func (d *Dispatcher) TraceWith(tracer trace.Tracer) *Dispatcher {
	d.tracer = tracer
	return d
}

// traced continues the trace of the request that caused the delivery (l.Trace) in ctx:
// with a tracer, the attempt's span, whose context the request sends as traceparent;
// without one, the request's own context goes on as it came.
func (d *Dispatcher) traced(ctx context.Context, l webhooks.Lease) (context.Context, func(webhooks.Result)) {
	ctx = observe.WithTraceParent(ctx, l.Trace)
	if d.tracer == nil {
		return ctx, func(webhooks.Result) {}
	}
	host := ""
	if u, err := url.Parse(l.Endpoint.URL); err == nil {
		host = u.Host // never the path or query: they may hold the receiver's token
	}
	ctx, span := d.tracer.Start(ctx, "webhook attempt", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("http.request.method", "POST"), attribute.String("server.address", host),
			attribute.String("creatorapi.delivery_id", l.Delivery.ID), attribute.String("creatorapi.event_id", l.Delivery.EventID),
			attribute.String("creatorapi.event_type", l.Delivery.EventType), attribute.Int("creatorapi.attempt", l.Delivery.Attempts+1)))
	return ctx, func(res webhooks.Result) {
		if res.StatusCode != 0 {
			span.SetAttributes(attribute.Int("http.response.status_code", res.StatusCode))
		}
		if res.StatusCode/100 != 2 {
			msg := res.Error
			if msg == "" {
				msg = "status " + strconv.Itoa(res.StatusCode)
			}
			span.SetStatus(codes.Error, msg)
		}
		span.End()
	}
}
