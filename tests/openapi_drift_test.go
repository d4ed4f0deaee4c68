package tests

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
	"github.com/creatorapi/creatorapi/tests/contract"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The document and the code cannot drift apart: the routes the public app mounts under
// /api/v1 are the documented operations, in both directions, with the documented scopes.

// concrete fills a route's parameters (":id" or "{id}") with a value. The events stream
// gets a cursor it refuses (422, after authentication and scope): a stream that was let
// through would never end.
func concrete(path string) string {
	if path == "/api/v1/events/stream" {
		return path + "?cursor=x"
	}
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "{") {
			parts[i] = "crs_drift"
		}
	}
	return strings.Join(parts, "/")
}

// mountedAPIRoutes probes every route the fiber app registered under /api/v1 and
// returns "METHOD path" of those that answer (the 405 fallbacks of web.Mount do not).
func mountedAPIRoutes(t *testing.T, env *testenv.Env, api testenv.Client) map[string]bool {
	t.Helper()
	mounted := map[string]bool{}
	for _, r := range env.Public.App.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, contract.Prefix+"/") || r.Method == http.MethodHead {
			continue // HEAD is fiber's twin of every GET
		}
		resp := api.Do(t, r.Method, concrete(r.Path), nil)
		if resp.Status == http.StatusMethodNotAllowed {
			continue
		}
		if resp.Status == http.StatusNotFound && strings.Contains(string(resp.Body), "no such endpoint") {
			t.Fatalf("%s %s is registered but answers %s", r.Method, r.Path, resp.Body)
		}
		mounted[r.Method+" "+openAPIPath(r.Path)] = true
	}
	return mounted
}

// openAPIPath writes fiber's ":id" as the document's "{id}".
func openAPIPath(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") {
			parts[i] = "{" + strings.TrimPrefix(p, ":") + "}"
		}
	}
	return strings.Join(parts, "/")
}

func TestOpenAPIEveryMountedRouteIsDocumentedAndEveryOperationMounted(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	ws := env.CreateWorkspace(t, "Drift")
	_, key := env.CreateKeyWithQuota(t, ws, 10000, 100000, testenv.AllScopes()...)
	mounted := mountedAPIRoutes(t, env, env.API(key))
	if len(mounted) == 0 {
		t.Fatal("no route under /api/v1 answered: the probe is broken")
	}
	doc := loadContract(t)
	documented := map[string]bool{}
	for _, op := range doc.Operations {
		documented[op.Method+" "+op.Path] = true
		if !mounted[op.Method+" "+op.Path] {
			t.Errorf("the document describes %s %s, which the app does not mount", op.Method, op.Path)
		}
	}
	for route := range mounted {
		if !documented[route] {
			t.Errorf("the app mounts %s, which the document does not describe", route)
		}
	}
}

// Each operation's security requirement names the scope the endpoint enforces: a key
// with every other scope is refused (403), a key with only that scope is not.
func TestOpenAPIScopesAreTheOnesEnforced(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	ws := env.CreateWorkspace(t, "Scopes")
	for _, op := range loadContract(t).Operations {
		var scopes []string
		for _, req := range op.Op.Security {
			for name, roles := range req.Requirements.FromOldest() {
				if name != "bearerAuth" {
					t.Errorf("%s %s: unknown security scheme %q", op.Method, op.Path, name)
				}
				scopes = append(scopes, roles...)
			}
		}
		if op.Path == openapi.Path {
			if len(scopes) != 0 || op.Op.Security == nil {
				t.Errorf("%s must declare security: [] (public)", op.Path)
			}
			continue
		}
		if op.Path == "/api/v1/test_helpers/events" {
			// Any sandbox key, whatever its scopes (tests/sandbox_test.go proves it).
			if len(scopes) != 0 || op.Op.Security == nil {
				t.Errorf("%s must declare bearerAuth with no scope", op.Path)
			}
			continue
		}
		if len(scopes) != 1 || !slices.Contains(testenv.AllScopes(), scopes[0]) {
			t.Errorf("%s %s documents scopes %v, want exactly one of the six", op.Method, op.Path, scopes)
			continue
		}
		others := slices.DeleteFunc(testenv.AllScopes(), func(s string) bool { return s == scopes[0] })
		_, without := env.CreateKey(t, ws, others...)
		if got := env.API(without).Do(t, op.Method, concrete(op.Path), nil); got.Status != http.StatusForbidden {
			t.Errorf("%s %s without %s: status %d, want 403", op.Method, op.Path, scopes[0], got.Status)
		}
		_, with := env.CreateKey(t, ws, scopes[0])
		if got := env.API(with).Do(t, op.Method, concrete(op.Path), nil); got.Status == http.StatusForbidden {
			t.Errorf("%s %s with only %s: 403 %s", op.Method, op.Path, scopes[0], got.Body)
		}
	}
}

func TestOpenAPIWebhooksAreTheThirteenPublicTypes(t *testing.T) {
	var want []string
	for _, typ := range events.WebhookTypes() { // the 13, then the operational types
		want = append(want, string(typ))
	}
	if got := loadContract(t).WebhookTypes(); !slices.Equal(got, want) {
		t.Fatalf("the document's webhooks are %v, want the public types %v", got, want)
	}
}

// The document is public: served without a key, outside the rate limits, as JSON equal
// to the embedded YAML, with an ETag; other methods are 405.
func TestOpenAPIDocumentIsServedWithoutAKey(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	resp := env.API("").Get(t, openapi.Path).Expect(t, http.StatusOK)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type %q", ct)
	}
	if resp.Header.Get("X-RateLimit-Limit") != "" {
		t.Fatal("the document is counted against a rate limit")
	}
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(resp.Body, doc.JSON) {
		t.Fatal("served document differs from the embedded one")
	}
	var parsed struct {
		OpenAPI string         `json:"openapi"`
		Paths   map[string]any `json:"paths"`
	}
	resp.Decode(t, &parsed)
	if parsed.OpenAPI != "3.1.0" || len(parsed.Paths) == 0 {
		t.Fatalf("served %q with %d paths", parsed.OpenAPI, len(parsed.Paths))
	}
	etag := resp.Header.Get("ETag")
	env.API("").WithHeader("If-None-Match", etag).Get(t, openapi.Path).Expect(t, http.StatusNotModified)
	env.API("").Post(t, openapi.Path, nil).ExpectError(t, http.StatusMethodNotAllowed, "method_not_allowed")
	// A bad key does not matter either: nothing is authenticated here.
	env.API("svc_wrong").Get(t, openapi.Path).Expect(t, http.StatusOK)
	var again map[string]any
	if err := json.Unmarshal(resp.Body, &again); err != nil {
		t.Fatal(err)
	}
}
