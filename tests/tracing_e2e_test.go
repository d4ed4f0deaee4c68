package tests

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/creatorapi/creatorapi/tests/testenv"
)

// otlpReceiver is an OTLP/HTTP trace receiver: it decodes each export (protobuf) and
// keeps the spans with their service name.
type otlpReceiver struct {
	URL   string
	mu    sync.Mutex
	spans []receivedSpan
}

type receivedSpan struct {
	Service, Name, TraceID, SpanID, ParentID string
	Kind                                     tracepb.Span_SpanKind
}

func newOTLPReceiver(t *testing.T) *otlpReceiver {
	o := &otlpReceiver{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" || err != nil {
			t.Errorf("OTLP export %s %s (%s): %v", r.Method, r.URL.Path, r.Header.Get("Content-Type"), err)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		o.mu.Lock()
		for _, rs := range req.GetResourceSpans() {
			service := ""
			for _, a := range rs.GetResource().GetAttributes() {
				if a.GetKey() == "service.name" {
					service = a.GetValue().GetStringValue()
				}
			}
			for _, ss := range rs.GetScopeSpans() {
				for _, s := range ss.GetSpans() {
					o.spans = append(o.spans, receivedSpan{Service: service, Name: s.GetName(), Kind: s.GetKind(),
						TraceID: hex.EncodeToString(s.GetTraceId()), SpanID: hex.EncodeToString(s.GetSpanId()),
						ParentID: hex.EncodeToString(s.GetParentSpanId())})
				}
			}
		}
		o.mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		_, _ = w.Write(out)
	}))
	t.Cleanup(srv.Close)
	o.URL = srv.URL
	return o
}

// of returns the spans of trace id.
func (o *otlpReceiver) of(traceID string) []receivedSpan {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []receivedSpan
	for _, s := range o.spans {
		if s.TraceID == traceID {
			out = append(out, s)
		}
	}
	return out
}

// A client's traceparent is the trace of everything its request causes: the request,
// its use case, the transaction, the outbox publish, a consumer over the transport (the
// analytics projection, on the SQL transport and on JetStream) and the webhook attempt, whose request carries the same
// trace id to the receiver; the spans reach an OTLP/HTTP receiver as one tree. Without
// an exporter, the webhook still carries the client's trace id.
func TestTraceFromClientRequestToWebhook(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary; skipped with -short")
	}
	testenv.Parallel(t) // its runs are in subtests: without the mark it ran in the serial phase
	for _, transport := range []string{"sql", "jetstream"} {
		for _, export := range []bool{true, false} {
			name := transport + "/export"
			if !export {
				name = transport + "/no-exporter"
			}
			t.Run(name, func(t *testing.T) {
				testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
					traceRoundTrip(t, dbURL, transport == "jetstream", export)
				})
			})
		}
	}
}

func traceRoundTrip(t *testing.T, dbURL string, jetstream, export bool) {
	bin := testenv.Binary(t)
	apiAddr, adminAddr := testenv.FreeAddr(t), testenv.FreeAddr(t)
	otlp := newOTLPReceiver(t)
	vars := append(os.Environ(),
		"CREATORAPI_DATA_DIR="+t.TempDir(), "CREATORAPI_DATABASE_URL="+dbURL,
		"CREATORAPI_HTTP_ADDR="+apiAddr, "CREATORAPI_ADMIN_ADDR="+adminAddr,
		"CREATORAPI_ADMIN_TOKEN=e2e-token-0123456789abcdef0123456789", "CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true",
		"CREATORAPI_LOG_LEVEL=warn", "OTEL_BSP_SCHEDULE_DELAY=100",
	)
	if export {
		vars = append(vars, "OTEL_EXPORTER_OTLP_ENDPOINT="+otlp.URL, "OTEL_SERVICE_NAME=creatorapi-trace-test")
	}
	if jetstream {
		vars = append(vars, testenv.NATSProcessEnv(t)...)
	}
	cli := binaryCLI(t, bin, vars)
	rc := testenv.NewReceiver(t)
	var ws struct{ ID string }
	mustJSON(t, cli("workspace", "create", "--name", "Traced", "--owner-email", "owner@example.com"), &ws)
	var whk struct{ ID string }
	mustJSON(t, cli("webhook", "create", "--workspace", ws.ID, "--url", rc.URL, "--events", "student.created"), &whk)
	var key struct{ Secret string }
	mustJSON(t, cli("key", "create", "--workspace", ws.ID, "--name", "traced", "--scopes", "write:students"), &key)

	cmd := exec.Command(bin, "serve")
	cmd.Env = vars
	logs := &bytes.Buffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	waitHealthy(t, "http://"+apiAddr+"/healthz", logs)

	const traceID, clientSpan = "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"
	body, _ := json.Marshal(map[string]string{"email": "traced@example.com"})
	req, _ := http.NewRequest(http.MethodPost, "http://"+apiAddr+"/api/v1/students", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+key.Secret)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+traceID+"-"+clientSpan+"-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create student: %d\n%s", resp.StatusCode, logs.String())
	}

	deadline := time.Now().Add(20 * time.Second)
	for len(rc.Got()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no webhook within 20 s\n%s", logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	parent := rc.Got()[0].Header.Get("traceparent")
	parts := strings.Split(parent, "-")
	if len(parts) != 4 || parts[1] != traceID {
		t.Fatalf("the webhook's traceparent is %q, want trace id %s", parent, traceID)
	}
	if !export {
		if len(otlp.of(traceID)) != 0 {
			t.Fatal("spans exported without an exporter configured")
		}
		return
	}
	// The attempt's span is the receiver's parent; every stage is one span of the trace.
	// The webhook fan-out runs in the publishing transaction (an inline consumer): the
	// attempt is a child of the publish; the analytics projection consumes the event over
	// the transport.
	want := []string{"POST /api/v1/students", "create student", "db transaction", "outbox publish", "consume analytics-projection", "webhook attempt"}
	// The analytics projection is a lazy consumer (its safety poll, a second) and shares
	// two cores with the whole suite: its span may come long after the webhook.
	deadline = time.Now().Add(90 * time.Second)
	var spans []receivedSpan
	for {
		spans = otlp.of(traceID)
		if hasNames(spans, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("spans of the trace: %+v\nwant names %v\n%s", spans, want, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	byName := map[string]receivedSpan{}
	for _, s := range spans {
		byName[s.Name] = s
	}
	server, attempt := byName["POST /api/v1/students"], byName["webhook attempt"]
	publish, consumer := byName["outbox publish"], byName["consume analytics-projection"]
	got := []any{server.Service, server.Kind, server.ParentID, attempt.Kind, attempt.SpanID, attempt.ParentID,
		publish.Kind, consumer.Kind, consumer.ParentID}
	wantTree := []any{"creatorapi-trace-test", tracepb.Span_SPAN_KIND_SERVER, clientSpan, tracepb.Span_SPAN_KIND_CLIENT, parts[2], publish.SpanID,
		tracepb.Span_SPAN_KIND_PRODUCER, tracepb.Span_SPAN_KIND_CONSUMER, publish.SpanID}
	if diff := cmp.Diff(wantTree, got); diff != "" {
		t.Fatalf("trace tree (-want +got):\n%s\nspans: %+v", diff, spans)
	}
}

func hasNames(spans []receivedSpan, names []string) bool {
	for _, n := range names {
		if !slices.ContainsFunc(spans, func(s receivedSpan) bool { return s.Name == n }) {
			return false
		}
	}
	return true
}
