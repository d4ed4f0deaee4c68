package sqldb

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// TraceWith makes each transaction WithinTx opens a client span of tracer, from BEGIN to
// COMMIT or ROLLBACK (the deferred writes and the commit included); nil: none. One span
// per transaction rather than per statement keeps the cost off the statements themselves.
func (db *DB) TraceWith(tracer trace.Tracer) {
	db.tracer = tracer
}

// traced starts the transaction's span when a tracer is set.
func (db *DB) traced(ctx context.Context) (context.Context, func(error)) {
	if db.tracer == nil {
		return ctx, nil
	}
	system := "sqlite"
	if db.Dialect == Postgres {
		system = "postgresql"
	}
	ctx, span := db.tracer.Start(ctx, "db transaction", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(attribute.String("db.system.name", system)))
	return ctx, func(err error) {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "transaction failed")
		}
		span.End()
	}
}
