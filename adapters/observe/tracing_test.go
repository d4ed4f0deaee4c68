package observe

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Export is on only with an OTLP endpoint, and the standard switches turn it off.
func TestExportingFollowsTheStandardVariables(t *testing.T) {
	t.Parallel()
	cases := map[string]map[string]string{
		"nothing set":     {},
		"endpoint":        {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"},
		"traces endpoint": {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"},
		"sdk disabled":    {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_SDK_DISABLED": "true"},
		"exporter none":   {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_EXPORTER": "none"},
		"exporter otlp":   {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318", "OTEL_TRACES_EXPORTER": "otlp"},
	}
	got := map[string]bool{}
	for name, vars := range cases {
		got[name] = Exporting(func(k string) string { return vars[k] })
	}
	want := map[string]bool{"nothing set": false, "endpoint": true, "traces endpoint": true, "sdk disabled": false, "exporter none": false, "exporter otlp": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("Exporting (-want +got):\n%s", diff)
	}
}

// A traceparent kept as text gives back the same span context, and a context without
// one gives none.
func TestTraceParentRoundTrip(t *testing.T) {
	t.Parallel()
	const tp = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	got := []string{TraceParent(WithTraceParent(context.Background(), tp)), TraceParent(context.Background()),
		TraceParent(WithTraceParent(context.Background(), "garbage")), RemoteSpanContext(tp).TraceID().String()}
	want := []string{tp, "", "", "4bf92f3577b34da6a3ce929d0e0e4736"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}
