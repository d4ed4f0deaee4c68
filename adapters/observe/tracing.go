package observe

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// ServiceName is the traces' service.name unless OTEL_SERVICE_NAME says otherwise.
const ServiceName = "creatorapi"

// TracerName names the instrumentation scope of every span the service starts.
const TracerName = "github.com/creatorapi/creatorapi"

// Tracing is the service's tracer. Tracer is nil when no exporter is configured: then
// nothing records spans (no SDK cost on any path) and the W3C trace context is still
// carried from the request to the event, the consumer and the webhook (traceparent).
type Tracing struct {
	Tracer   trace.Tracer
	shutdown func(context.Context) error
}

// Exporting tells whether the standard variables ask for an export: an OTLP endpoint
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, and neither
// OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none turns it off.
func Exporting(getenv func(string) string) bool {
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		return false
	}
	if e := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER")); e != "" && e != "otlp" {
		return false // "none", or an exporter this build does not carry
	}
	return strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_ENDPOINT")) != "" ||
		strings.TrimSpace(getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) != ""
}

// Open is NewTracing when export is set (Exporting), else a Tracing whose spans go
// nowhere: what a service opens from its configuration.
func Open(ctx context.Context, export bool, version string) (*Tracing, error) {
	if !export {
		return &Tracing{}, nil
	}
	return NewTracing(ctx, version)
}

// NewTracing builds the exporting tracer from the standard OTEL_* variables (call it
// when Exporting says so; otherwise the zero Tracing is off). Spans go to the OTLP/HTTP exporter through a batch
// processor, which read the rest of the OTEL_EXPORTER_OTLP_* and OTEL_BSP_* variables
// themselves; the sampler is OTEL_TRACES_SAMPLER's, parent-based by default
// (parentbased_always_on); the resource is service.name creatorapi (OTEL_SERVICE_NAME
// and OTEL_RESOURCE_ATTRIBUTES override it) and service.version.
func NewTracing(ctx context.Context, version string) (*Tracing, error) {
	exporter, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", ServiceName), attribute.String("service.version", version)),
		resource.WithTelemetrySDK(),
		resource.WithFromEnv(), // last: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	)
	if err != nil {
		return nil, fmt.Errorf("trace resource: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exporter), sdktrace.WithResource(res))
	return &Tracing{Tracer: tp.Tracer(TracerName), shutdown: tp.Shutdown}, nil
}

// TracingWith traces through tp (tests: the SDK's in-memory recorder).
func TracingWith(tp trace.TracerProvider) *Tracing {
	return &Tracing{Tracer: tp.Tracer(TracerName)}
}

// Shutdown exports what is buffered and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t == nil || t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}
