package tests

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
	"github.com/creatorapi/creatorapi/ports/http/docs"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// docsExamplesPath is the examples file /docs shows under each operation.
var docsExamplesPath = filepath.Join("..", "ports", "http", "docs", docs.ExamplesFile)

// TestDocsExamples calls every operation of /api/v1 on a running service (its real
// listener) in a fixed story and compares the curl lines, requests and answers, with ids
// and cursors normalised, to the committed examples /docs shows: they cannot drift from
// what the service answers. `make docs-examples` rewrites the file (from SQLite).
func TestDocsExamples(t *testing.T) {
	write := os.Getenv("CREATORAPI_WRITE_DOCS_EXAMPLES") == "1"
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		got := docsExamplesStory(t, databaseURL)
		for _, id := range documentedOperations(t) {
			if _, ok := got[id]; !ok {
				t.Errorf("operation %s has no example: add a call to docsExamplesStory", id)
			}
		}
		raw, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		raw = append(raw, '\n')
		if write && strings.HasPrefix(databaseURL, "sqlite") {
			if err := os.WriteFile(docsExamplesPath, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		committedRaw, err := os.ReadFile(docsExamplesPath)
		if err != nil {
			t.Fatal(err)
		}
		var committed docs.Examples
		if err := json.Unmarshal(committedRaw, &committed); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(committed, got); diff != "" {
			t.Fatalf("the docs' examples differ from what the service answers (-committed +now); run `make docs-examples`:\n%s", diff)
		}
	})
}

// documentedOperations lists the operationIds of the document's paths.
func documentedOperations(t *testing.T) []string {
	t.Helper()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Paths map[string]map[string]struct {
			OperationID string `json:"operationId"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(doc.JSON, &d); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, item := range d.Paths {
		for _, op := range item {
			if op.OperationID != "" {
				ids = append(ids, op.OperationID)
			}
		}
	}
	return ids
}

// TestDocsPageShowsExamples renders /docs from the document and checks that an
// operation's section carries its curl line and answer.
func TestDocsPageShowsExamples(t *testing.T) {
	testenv.Parallel(t)
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	res := env.API("").Get(t, "/docs").Expect(t, http.StatusOK)
	page := string(res.Body)
	for _, want := range []string{
		`<h4>Example</h4>`,
		`curl -sS -X POST &#34;$CREATORAPI_URL/api/v1/students/batch&#34;`,
		`Idempotency-Key: $(uuidgen)`,
		`&#34;status&#34;: &#34;updated&#34;`,
		`<code>docs/quickstart.md</code>`,
	} {
		if !strings.Contains(page, want) {
			t.Fatalf("/docs lacks %q", want)
		}
	}
	if n, ops := strings.Count(page, `<h4>Example</h4>`), len(documentedOperations(t)); n != ops {
		t.Fatalf("/docs shows %d examples for %d operations", n, ops)
	}
}

// exampleRecorder sends requests to the service and keeps each as an example.
type exampleRecorder struct {
	t       *testing.T
	baseURL string
	key     string
	ids     map[string]string // real id -> its stable stand-in
	out     docs.Examples
}

var (
	idPattern     = regexp.MustCompile(`\b([a-z]{2,5})_([0-9A-Za-z]{20,32})\b`)
	cursorPattern = regexp.MustCompile(`"cursor":\s*"[^"]+"`)
)

// normalise replaces each id by a stand-in numbered by first appearance (the same id
// always gets the same one) and each cursor by a fixed token.
func (r *exampleRecorder) normalise(s string) string {
	s = idPattern.ReplaceAllStringFunc(s, func(id string) string {
		if v, ok := r.ids[id]; ok {
			return v
		}
		prefix := id[:strings.IndexByte(id, '_')]
		v := fmt.Sprintf("%s_01jd4y2q8n5x3v7w9k1m6p%04d", prefix, len(r.ids)+1) // lower case, like the real ids
		r.ids[id] = v
		return v
	})
	return cursorPattern.ReplaceAllString(s, `"cursor": "eyJ2IjoxfQ.c2lnbmF0dXJl"`)
}

// call sends one request and records it under operationID; it returns the answer's body.
func (r *exampleRecorder) call(operationID, method, path string, body any, want int) map[string]any {
	r.t.Helper()
	var reqBody []byte
	if body != nil {
		var err error
		if reqBody, err = json.Marshal(body); err != nil {
			r.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, r.baseURL+path, bytes.NewReader(reqBody))
	if err != nil {
		r.t.Fatal(err)
	}
	if operationID != "getOpenAPIDocument" {
		req.Header.Set("Authorization", "Bearer "+r.key)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	if res.StatusCode != want {
		r.t.Fatalf("%s %s: %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	var parsed map[string]any
	_ = json.Unmarshal(raw, &parsed)

	ex := docs.Example{Status: res.StatusCode}
	curl := []string{fmt.Sprintf(`curl -sS -X %s "$CREATORAPI_URL%s"`, method, r.normalise(path))}
	if operationID != "getOpenAPIDocument" {
		curl = append(curl, `-H "Authorization: Bearer $CREATORAPI_KEY"`)
	}
	if body != nil {
		if method == http.MethodPost {
			curl = append(curl, `-H "Idempotency-Key: $(uuidgen)"`)
		}
		curl = append(curl, `-H "Content-Type: application/json"`, "-d '"+r.normalise(string(reqBody))+"'")
		ex.Request = r.normalise(indentJSON(r.t, reqBody))
	}
	ex.Curl = strings.Join(curl, " \\\n  ")
	if operationID == "getOpenAPIDocument" {
		ex.Response = "(this document, as JSON: openapi, info, paths, webhooks, components)"
	} else if len(raw) > 0 {
		ex.Response = r.normalise(indentJSON(r.t, raw))
	}
	r.out[operationID] = ex
	return parsed
}

func indentJSON(t *testing.T, raw []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Indent(&buf, raw, "", "  "); err != nil {
		t.Fatalf("indent %q: %v", raw, err)
	}
	return buf.String()
}

// docsExamplesStory is the fixed story: one call of each operation, in an order where
// each finds what it needs. The manual clock moves a second between writes so that
// lists order the same way on every run.
func docsExamplesStory(t *testing.T, databaseURL string) docs.Examples {
	env, baseURL := startServing(t, databaseURL)
	ws := env.CreateWorkspace(t, "Ada's Academy")
	_, key := env.CreateKey(t, ws, testenv.AllScopes()...)
	r := &exampleRecorder{t: t, baseURL: baseURL, key: key, ids: map[string]string{}, out: docs.Examples{}}
	tick := func() { env.Clock.Advance(time.Second) }
	course := env.CreatePublishedCourse(t, ws, "CRM Basics")
	tick()

	r.call("getOpenAPIDocument", http.MethodGet, "/api/v1/openapi.json", nil, http.StatusOK)
	r.call("listCourses", http.MethodGet, "/api/v1/courses?limit=1", nil, http.StatusOK)
	c := r.call("getCourse", http.MethodGet, "/api/v1/courses/"+course, nil, http.StatusOK)
	_ = c
	st := r.call("createStudent", http.MethodPost, "/api/v1/students",
		map[string]any{"email": "ada@example.com", "firstName": "Ada", "lastName": "Byron", "externalId": "crm-4711"}, http.StatusCreated)
	studentID, _ := st["id"].(string)
	tick()
	r.call("updateStudent", http.MethodPatch, "/api/v1/students/"+studentID,
		map[string]any{"lastName": "Lovelace", "metadata": map[string]any{"plan": "pro"}}, http.StatusOK)
	tick()
	r.call("upsertStudents", http.MethodPost, "/api/v1/students/batch", map[string]any{"items": []any{
		map[string]any{"externalId": "crm-4711", "metadata": map[string]any{"plan": "team"}},
		map[string]any{"email": "grace@example.com", "firstName": "Grace", "lastName": "Hopper", "externalId": "crm-4712"},
	}}, http.StatusOK)
	tick()
	r.call("listStudents", http.MethodGet, "/api/v1/students?externalId=crm-4711", nil, http.StatusOK)
	en := r.call("createEnrollment", http.MethodPost, "/api/v1/enrollments", map[string]any{"studentId": studentID, "courseId": course}, http.StatusCreated)
	enrollmentID, _ := en["id"].(string)
	tick()
	order := env.PlaceOrder(t, ws, studentID, "eur", testenv.OrderItem{CourseID: course, Amount: 4900})
	tick()
	r.call("revokeEnrollment", http.MethodDelete, "/api/v1/enrollments/"+enrollmentID, nil, http.StatusOK)
	env.WaitForConsumers(t) // the order's grant learns of the revocation from its event
	r.call("getStudent", http.MethodGet, "/api/v1/students/"+studentID, nil, http.StatusOK)
	r.call("getOrder", http.MethodGet, "/api/v1/orders/"+order.ID, nil, http.StatusOK)
	r.call("listOrders", http.MethodGet, "/api/v1/orders?studentId="+studentID, nil, http.StatusOK)
	r.call("getAnalyticsSummary", http.MethodGet, "/api/v1/analytics/summary?from=2026-11-01&to=2026-11-30", nil, http.StatusOK)
	// The feed's first student.created is Ada's, the oldest: the long poll answers once it
	// is visible (on PostgreSQL other transactions may hold it back a moment).
	feed := r.call("listEvents", http.MethodGet, "/api/v1/events?types=student.created&limit=1&wait=10", nil, http.StatusOK)
	if items, _ := feed["data"].([]any); len(items) == 1 {
		first, _ := items[0].(map[string]any)
		eventID, _ := first["id"].(string)
		r.call("getEvent", http.MethodGet, "/api/v1/events/"+eventID, nil, http.StatusOK)
	}
	r.stream("streamEvents", "/api/v1/events/stream?types=student.created")
	// The test helper answers sandbox keys only.
	var sandbox struct{ ID string }
	env.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/sandbox", map[string]any{}).Expect(t, http.StatusCreated).Decode(t, &sandbox)
	_, r.key = env.CreateKey(t, sandbox.ID, "read:students")
	r.call("triggerTestEvent", http.MethodPost, "/api/v1/test_helpers/events", map[string]any{"type": "order.paid"}, http.StatusCreated)
	return r.out
}

var streamIDPattern = regexp.MustCompile(`(?m)^id: .+$`)

// stream opens a server-sent event stream and records its first event (the stream itself
// never ends), its resumable id replaced by the fixed cursor token.
func (r *exampleRecorder) stream(operationID, path string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.baseURL+path, nil)
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+r.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		r.t.Fatalf("GET %s: %d", path, res.StatusCode)
	}
	var first strings.Builder
	for sc := bufio.NewScanner(res.Body); sc.Scan(); {
		line := sc.Text()
		if line == "" && first.Len() > 0 {
			break
		}
		if line != "" && !strings.HasPrefix(line, ":") { // pings are comments
			first.WriteString(line + "\n")
		}
	}
	block := streamIDPattern.ReplaceAllString(first.String(), "id: eyJ2IjoxfQ.c2lnbmF0dXJl")
	r.out[operationID] = docs.Example{
		Status:   res.StatusCode,
		Curl:     fmt.Sprintf(`curl -sS -N "$CREATORAPI_URL%s" \`+"\n  "+`-H "Authorization: Bearer $CREATORAPI_KEY"`, r.normalise(path)),
		Response: r.normalise(block) + "(... one such block per event, and a \": ping\" comment every 15 s)",
	}
}
