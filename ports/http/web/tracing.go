package web

import (
	"context"
	"math/rand/v2"
	"strconv"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// Trace reads the W3C trace context of the request (traceparent, tracestate) into its
// context, where use cases, events and webhooks carry it on; a request without one begins
// a new trace. With a tracer, the request is a server span named by its route. Without
// one (no exporter configured) nothing is recorded: the context alone goes on, with a
// fresh trace id when the client sent none, at the cost of two random numbers.
func Trace(tracer trace.Tracer) fiber.Handler {
	return func(c *fiber.Ctx) error {
		ctx := propagation.TraceContext{}.Extract(c.UserContext(), fiberCarrier{c})
		if tracer == nil {
			if !trace.SpanContextFromContext(ctx).IsValid() {
				ctx = trace.ContextWithSpanContext(ctx, NewSpanContext())
			}
			c.SetUserContext(ctx)
			return c.Next()
		}
		ctx, span := tracer.Start(ctx, c.Method(), trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attribute.String("http.request.method", c.Method())))
		defer span.End()
		c.SetUserContext(ctx)
		err := c.Next()
		status := c.Response().StatusCode()
		if err != nil {
			if p, _ := ProblemOf(err); p != nil {
				status = p.Status
			}
		}
		route := c.Route().Path
		span.SetName(c.Method() + " " + route)
		span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status),
			attribute.String("creatorapi.request_id", RequestIDOf(c)))
		if status >= 500 {
			span.SetStatus(codes.Error, strconv.Itoa(status))
		}
		return err
	}
}

// NewSpanContext is a new trace's root: random trace and span ids, not sampled here.
func NewSpanContext() trace.SpanContext {
	var tid trace.TraceID
	var sid trace.SpanID
	for !tid.IsValid() || !sid.IsValid() {
		a, b, s := rand.Uint64(), rand.Uint64(), rand.Uint64()
		for i := range 8 {
			tid[i], tid[8+i], sid[i] = byte(a>>(8*i)), byte(b>>(8*i)), byte(s>>(8*i))
		}
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid})
}

// fiberCarrier reads the request's headers for the propagator.
type fiberCarrier struct{ c *fiber.Ctx }

func (f fiberCarrier) Get(key string) string { return f.c.Get(key) }
func (f fiberCarrier) Set(string, string)    {}
func (f fiberCarrier) Keys() []string        { return []string{"traceparent", "tracestate"} }

var _ propagation.TextMapCarrier = fiberCarrier{}

// TraceIDOf is the trace id of ctx, or "".
func TraceIDOf(ctx context.Context) string {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		return sc.TraceID().String()
	}
	return ""
}
