// Package observe implements platform.Observer: every use case run is measured per use
// case and outcome, and logged with the request id and the trace id (faults at error
// level, the rest at debug); Spans traces them (OpenTelemetry), one more Observer in Many.
package observe

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// UseCases logs and measures use case runs.
type UseCases struct {
	logger   *slog.Logger
	duration *prometheus.HistogramVec
	mu       sync.RWMutex
	series   map[[2]string]prometheus.Observer // by use case and outcome, resolved once
}

// NewUseCases registers creatorapi_use_case_duration_seconds{use_case, outcome} on registry.
func NewUseCases(logger *slog.Logger, registry *prometheus.Registry) (*UseCases, error) {
	u := &UseCases{
		logger: logger,
		series: map[[2]string]prometheus.Observer{},
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "creatorapi_use_case_duration_seconds", Help: "Use case runs by use case and outcome (ok, rejected, fault).",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"use_case", "outcome"}),
	}
	if err := registry.Register(u.duration); err != nil {
		return nil, err
	}
	return u, nil
}

// Begin starts the clock of one run.
func (u *UseCases) Begin(ctx context.Context, useCase string) (context.Context, func(error)) {
	start := time.Now()
	return ctx, func(err error) { u.End(ctx, useCase, start, err) }
}

// End measures and logs one run that began at start (platform.Timer: no closure per run).
func (u *UseCases) End(ctx context.Context, useCase string, start time.Time, err error) {
	elapsed := time.Since(start)
	outcome := Outcome(err)
	u.observer(useCase, outcome).Observe(elapsed.Seconds())
	level := slog.LevelDebug
	if outcome == "fault" {
		level = slog.LevelError
	}
	if u.logger.Enabled(ctx, level) {
		attrs := []slog.Attr{slog.String("use_case", useCase), slog.String("outcome", outcome), slog.Duration("elapsed", elapsed)}
		if id := platform.RequestID(ctx); id != "" {
			attrs = append(attrs, slog.String("request_id", id))
		}
		if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
			attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
		}
		if err != nil {
			attrs = append(attrs, slog.String("error", err.Error()))
		}
		u.logger.LogAttrs(ctx, level, "use case", attrs...)
	}
}

var _ platform.Timer = (*UseCases)(nil)

// observer returns the histogram of one use case and outcome, resolving its labels the
// first time only (no label hashing per run).
func (u *UseCases) observer(useCase, outcome string) prometheus.Observer {
	k := [2]string{useCase, outcome}
	u.mu.RLock()
	o, ok := u.series[k]
	u.mu.RUnlock()
	if ok {
		return o
	}
	o = u.duration.WithLabelValues(useCase, outcome)
	u.mu.Lock()
	u.series[k] = o
	u.mu.Unlock()
	return o
}

// Outcome classifies a use case's error: ok, rejected (a kernel error the caller can
// fix: invalid, not found, forbidden...) or fault.
func Outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case kernel.KindOf(err) != 0:
		return "rejected"
	default:
		return "fault"
	}
}

// Many runs several observers, in order; each sees the context the previous one returned.
type Many []platform.Observer

// Begin begins every observer and ends them in reverse order.
func (m Many) Begin(ctx context.Context, useCase string) (context.Context, func(error)) {
	ends := make([]func(error), len(m))
	for i, o := range m {
		ctx, ends[i] = o.Begin(ctx, useCase)
	}
	return ctx, func(err error) {
		for i := len(ends) - 1; i >= 0; i-- {
			ends[i](err)
		}
	}
}
