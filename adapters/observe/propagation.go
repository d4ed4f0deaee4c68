package observe

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// The W3C trace context's header names, also the keys of an event's metadata.
const (
	HeaderTraceParent = "traceparent"
	HeaderTraceState  = "tracestate"
)

// TraceParent is the W3C traceparent of ctx's span context ("" when it has none): what an
// event's metadata and a webhook delivery keep to continue the trace later.
func TraceParent(ctx context.Context) string {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ""
	}
	var c oneHeader
	propagation.TraceContext{}.Inject(ctx, &c)
	return c.parent
}

// WithTraceParent is ctx continuing the remote trace of traceparent (ctx as is when
// traceparent is empty or malformed).
func WithTraceParent(ctx context.Context, traceparent string) context.Context {
	if traceparent == "" {
		return ctx
	}
	return propagation.TraceContext{}.Extract(ctx, &oneHeader{parent: traceparent})
}

// RemoteSpanContext is the span context traceparent names (invalid when it names none).
func RemoteSpanContext(traceparent string) trace.SpanContext {
	if traceparent == "" {
		return trace.SpanContext{}
	}
	return trace.SpanContextFromContext(WithTraceParent(context.Background(), traceparent))
}

// oneHeader carries traceparent alone (the trace state is not kept).
type oneHeader struct{ parent string }

func (h *oneHeader) Get(key string) string {
	if key == HeaderTraceParent {
		return h.parent
	}
	return ""
}

func (h *oneHeader) Set(key, value string) {
	if key == HeaderTraceParent {
		h.parent = value
	}
}

func (h *oneHeader) Keys() []string { return []string{HeaderTraceParent} }
