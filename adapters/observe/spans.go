package observe

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Spans makes every use case run a span (internal, named by the use case) in the trace
// of its context; a fault marks it as an error, a rejection (a kernel error the caller
// can fix) records its outcome only.
type Spans struct{ tracer trace.Tracer }

// NewSpans traces use cases through tracer.
func NewSpans(tracer trace.Tracer) Spans { return Spans{tracer: tracer} }

// Begin starts the use case's span.
func (s Spans) Begin(ctx context.Context, useCase string) (context.Context, func(error)) {
	ctx, span := s.tracer.Start(ctx, useCase)
	return ctx, func(err error) {
		outcome := Outcome(err)
		span.SetAttributes(attribute.String("creatorapi.outcome", outcome))
		if outcome == "fault" {
			span.RecordError(err)
			span.SetStatus(codes.Error, "fault")
		}
		span.End()
	}
}
