package tests

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The spans of one public write, recorded in memory by the SDK: the client's traceparent
// is the parent of the request's span; the use case, its transaction and the outbox
// publish are its descendants; the analytics consumer (over the transport) is a child of
// the publish, and so is the webhook attempt (the fan-out runs inline, in the publishing
// transaction), whose span is the receiver's traceparent.
func TestSpansOfAWriteInMemory(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		rec := tracetest.NewSpanRecorder()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
		env := testenv.Start(t, dbURL,
			fx.Decorate(func(c compose.Config) compose.Config { c.WebhookAllowPrivate = true; return c }),
			fx.Decorate(func(*observe.Tracing) *observe.Tracing { return observe.TracingWith(tp) }))
		ws := env.CreateWorkspace(t, "Traced")
		rc := testenv.NewReceiver(t)
		env.CreateWebhook(t, ws, rc.URL, "student.created")
		_, key := env.CreateKey(t, ws, "write:students")

		const traceID, clientSpan = "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"
		resp := env.API(key).WithHeader("traceparent", "00-"+traceID+"-"+clientSpan+"-01").
			Do(t, http.MethodPost, "/api/v1/students", map[string]string{"email": "traced@example.com"})
		if resp.Status != http.StatusCreated {
			t.Fatalf("create student: %d %s", resp.Status, resp.Body)
		}
		deadline := time.Now().Add(10 * time.Second)
		for len(rc.Got()) == 0 {
			if time.Now().After(deadline) {
				t.Fatal("no webhook within 10 s")
			}
			time.Sleep(5 * time.Millisecond)
		}
		header := rc.Got()[0].Header.Get("traceparent")
		deadline = time.Now().Add(90 * time.Second) // the analytics projection is lazy (docs/events.md, "Wakeups")
		byName := map[string]sdktrace.ReadOnlySpan{}
		for {
			for _, s := range rec.Ended() {
				if s.SpanContext().TraceID().String() == traceID {
					byName[s.Name()] = s
				}
			}
			if byName["webhook attempt"] != nil && byName["consume analytics-projection"] != nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		id := func(name string) string {
			if s := byName[name]; s != nil {
				return s.SpanContext().SpanID().String()
			}
			return "(no span " + name + ")"
		}
		parentOf := func(name string) string {
			if s := byName[name]; s != nil {
				return s.Parent().SpanID().String()
			}
			return "(no span " + name + ")"
		}
		kind := func(name string) trace.SpanKind {
			if s := byName[name]; s != nil {
				return s.SpanKind()
			}
			return trace.SpanKindUnspecified
		}
		got := map[string]any{
			"request parent": parentOf("POST /api/v1/students"), "request kind": kind("POST /api/v1/students"),
			"use case parent": parentOf("create student"), "publish kind": kind("outbox publish"),
			"consumer parent": parentOf("consume analytics-projection"), "consumer kind": kind("consume analytics-projection"),
			"attempt kind": kind("webhook attempt"), "attempt parent": parentOf("webhook attempt"), "receiver's traceparent": header,
		}
		want := map[string]any{
			"request parent": clientSpan, "request kind": trace.SpanKindServer,
			"use case parent": id("POST /api/v1/students"), "publish kind": trace.SpanKindProducer,
			"consumer parent": id("outbox publish"), "consumer kind": trace.SpanKindConsumer,
			"attempt kind": trace.SpanKindClient, "attempt parent": id("outbox publish"), "receiver's traceparent": "00-" + traceID + "-" + id("webhook attempt") + "-01",
		}
		if diff := cmp.Diff(want, got); diff != "" {
			var names []string
			for _, s := range rec.Ended() {
				names = append(names, s.Name()+" "+s.SpanContext().TraceID().String()[:8]+"/"+s.Parent().SpanID().String()[:4])
			}
			t.Fatalf("spans of the trace (-want +got):\n%s\nspans: %s", diff, strings.Join(names, ", "))
		}
	})
}
