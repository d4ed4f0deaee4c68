package fuzz

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The fuzzers send every endpoint's inputs (path segment, query string, body, content
// type) through the fiber apps' server handlers, on SQLite and PostgreSQL, and hold the
// service to two rules: never a 5xx, and every error in the envelope. Their seed
// corpus runs with go test ./...; `make fuzz` (and CI, bounded) mutates it.

// fuzzWorld is a started service with one workspace's fixtures: the ids an input
// falls back to when it leaves a segment empty.
type fuzzWorld struct {
	name     string
	public   testenv.RawClient
	operator testenv.RawClient
	ids      map[string]string
}

var fuzzWarnOnce sync.Once

// fuzzWorlds starts one service per database. Without CREATORAPI_TEST_POSTGRES_URL the
// PostgreSQL world is left out, loudly; under CI its absence fails (testenv rules).
func fuzzWorlds(f *testing.F) []*fuzzWorld {
	urls := map[string]string{testenv.SQLite: testenv.NewSQLiteURL(f)}
	if os.Getenv(testenv.PostgresURLVar) != "" || os.Getenv("CI") == "true" {
		urls[testenv.Postgres] = testenv.NewPostgresURL(f)
	} else {
		fuzzWarnOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "\n*** fuzzing on SQLite only: set %s to fuzz PostgreSQL too ***\n\n", testenv.PostgresURLVar)
		})
	}
	var worlds []*fuzzWorld
	for _, name := range []string{testenv.SQLite, testenv.Postgres} {
		if url, ok := urls[name]; ok {
			worlds = append(worlds, newFuzzWorld(f, name, url))
		}
	}
	return worlds
}

func newFuzzWorld(f *testing.F, name, url string) *fuzzWorld {
	// The dispatcher stays idle: fuzzed webhook URLs must never be dialled.
	env := testenv.Start(f, url, fx.Replace(compose.WebhookDispatching{Background: false, Limits: adapterwebhooks.DefaultLimits}))
	ws := env.CreateWorkspace(f, "Fuzz")
	_, key := env.CreateKeyWithQuota(f, ws, 1_000_000, 1_000_000, testenv.AllScopes()...)
	spareKey, _ := env.CreateKeyWithQuota(f, ws, 0, 0, "read:courses") // the operator fuzzer may revoke this one
	course := env.CreateCourse(f, ws, "Fuzzing 101")
	env.PublishCourse(f, ws, course)
	draft := env.CreateCourse(f, ws, "Draft")
	var detail struct {
		Modules []struct {
			ID      string
			Lessons []struct{ ID string }
		}
	}
	env.Admin().Get(f, "/internal/v1/workspaces/"+ws+"/courses/"+course).Expect(f, http.StatusOK).Decode(f, &detail)
	student := env.CreateStudent(f, ws, "fuzz@example.com")
	enrollment := env.Enroll(f, ws, student, course)
	order := env.PlaceOrder(f, ws, env.CreateStudent(f, ws, "buyer@example.com"), "usd", testenv.OrderItem{CourseID: course, Amount: 4900})
	webhook, _ := env.CreateWebhook(f, ws, "https://hooks.example.com/in", "order.paid")
	var live struct{ ID string }
	env.Admin().Post(f, "/internal/v1/workspaces/"+ws+"/live-sessions", map[string]string{"courseId": course, "title": "Live"}).
		Expect(f, http.StatusCreated).Decode(f, &live)
	return &fuzzWorld{
		name:     name,
		public:   testenv.NewRawClient(env.Public.App, key),
		operator: testenv.NewRawClient(env.Operator.App, testenv.AdminToken),
		ids: map[string]string{
			"org": ws, "course": course, "draft": draft, "module": detail.Modules[0].ID, "lesson": detail.Modules[0].Lessons[0].ID,
			"student": student, "enrollment": enrollment, "order": order.ID, "webhook": webhook, "key": spareKey,
			"live": live.ID, "delivery": "evd_00000000000000000000000000",
		},
	}
}

// fuzzRoute is one endpoint: {org} and {id} in path are replaced by the fuzzed
// segments, or by the world's ids (idKind names which) when those are empty.
type fuzzRoute struct {
	method, path, idKind string
}

// uri builds the request URI from raw, unescaped input: what a hostile client sends.
func (w *fuzzWorld) uri(r fuzzRoute, org, id, query string) string {
	if org == "" {
		org = w.ids["org"]
	}
	if id == "" {
		id = w.ids[r.idKind]
	}
	u := strings.NewReplacer("{org}", org, "{id}", id).Replace(r.path)
	if query != "" {
		u += "?" + query
	}
	return u
}

// expectSane sends one request and holds the answer to the rules.
func expectSane(t *testing.T, world string, c testenv.RawClient, method, uri string, body []byte, contentType string) {
	t.Helper()
	if len(body) == 0 {
		body = nil
	}
	start := time.Now()
	r := c.Do(method, uri, body, contentType)
	where := fmt.Sprintf("[%s] %s %q body %q content-type %q", world, method, uri, body, contentType)
	if took := time.Since(start); took > slowRequest {
		t.Fatalf("%s: took %s", where, took)
	}
	if r.Status >= 500 || r.Status < 100 {
		t.Fatalf("%s: status %d: %s", where, r.Status, r.Body)
	}
	if len(r.Header["X-Request-Id"]) == 0 {
		t.Fatalf("%s: no X-Request-Id", where)
	}
	if r.Status < 400 {
		if len(r.Body) > 0 && !json.Valid(r.Body) {
			t.Fatalf("%s: status %d with a body that is not JSON: %q", where, r.Status, r.Body)
		}
		return
	}
	var env struct {
		Error *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil || env.Error == nil || env.Error.Message == "" || !knownCodes[env.Error.Code] {
		t.Fatalf("%s: status %d without the error envelope: %q", where, r.Status, r.Body)
	}
}

// slowRequest is far beyond any request's time here, even on a loaded machine: one
// input that takes this long is a denial of service.
const slowRequest = 10 * time.Second

var knownCodes = map[string]bool{
	"unauthorized": true, "forbidden": true, "not_found": true, "rate_limited": true,
	"invalid_request": true, "internal_error": true, "method_not_allowed": true,
}
