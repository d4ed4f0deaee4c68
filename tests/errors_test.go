package tests

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/domain/keys"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// faultyEndpoints joins the real route table through the same fx group as the modules.
func faultyEndpoints() fx.Option {
	return fx.Provide(fx.Annotate(func() []v1.Endpoint {
		return []v1.Endpoint{
			{Method: fiber.MethodGet, Path: "/test/panic", Scope: keys.ReadCourses, Handler: func(*fiber.Ctx) error {
				panic("pq: relation \"secret_table\" does not exist")
			}},
			{Method: fiber.MethodGet, Path: "/test/fault", Scope: keys.ReadCourses, Handler: func(*fiber.Ctx) error {
				return fmt.Errorf("query failed: %w", errors.New("SELECT * FROM api_keys: connection reset"))
			}},
		}
	}, fx.ResultTags(`group:"api_v1"`)))
}

func TestErrorsUseTheEnvelopeAndFollowTheCheckOrder(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL, faultyEndpoints())
		ws := env.CreateWorkspace(t, "Academy")
		_, full := env.CreateKey(t, ws, "read:courses")
		_, noScope := env.CreateKey(t, ws, "read:orders")
		course := env.CreatePublishedCourse(t, ws, "Course")

		// 401 comes first, even for unknown paths and wrong methods.
		env.API("").Get(t, "/api/v1/nowhere").ExpectError(t, http.StatusUnauthorized, "unauthorized")
		env.API("").Post(t, "/api/v1/courses", "{}").ExpectError(t, http.StatusUnauthorized, "unauthorized")
		// Then the route: 404 unknown path, 405 with Allow for another method.
		env.API(noScope).Get(t, "/api/v1/nowhere").ExpectError(t, http.StatusNotFound, "not_found")
		r := env.API(noScope).Post(t, "/api/v1/courses", "{}").ExpectError(t, http.StatusMethodNotAllowed, "method_not_allowed")
		if allow := r.Header.Get("Allow"); !strings.Contains(allow, "GET") {
			t.Fatalf("Allow %q", allow)
		}
		// Methods are case-sensitive.
		env.API(full).Do(t, "get", "/api/v1/courses", nil).ExpectError(t, http.StatusMethodNotAllowed, "method_not_allowed")
		// Then the scope (403) before validation (422) and lookup (404).
		env.API(noScope).Get(t, "/api/v1/courses?limit=0").ExpectError(t, http.StatusForbidden, "forbidden")
		env.API(noScope).Get(t, "/api/v1/courses/crs_missing").ExpectError(t, http.StatusForbidden, "forbidden")
		// Then validation before the resource lookup.
		env.API(full).Get(t, "/api/v1/courses/crs_missing?expand=x").ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		env.API(full).Get(t, "/api/v1/courses/crs_missing").ExpectError(t, http.StatusNotFound, "not_found")
		env.API(full).Get(t, "/api/v1/courses/"+course).Expect(t, http.StatusOK)

		// Faults are 500 internal_error and never leak internals.
		for _, path := range []string{"/api/v1/test/panic", "/api/v1/test/fault"} {
			r := env.API(full).Get(t, path).ExpectError(t, http.StatusInternalServerError, "internal_error")
			for _, leak := range []string{"secret_table", "SELECT", "api_keys", "goroutine", ".go:"} {
				if strings.Contains(string(r.Body), leak) {
					t.Fatalf("%s leaks %q: %s", path, leak, r.Body)
				}
			}
		}
		// Outside /api there is no authentication, but the same envelope.
		env.API("").Get(t, "/nowhere").ExpectError(t, http.StatusNotFound, "not_found")
		env.API("").Get(t, "/healthz").Expect(t, http.StatusOK)
		env.API("").Get(t, "/readyz").Expect(t, http.StatusOK)
	})
}

func TestEveryResponseCarriesARequestID(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	if id := env.API("").Get(t, "/api/v1/courses").Header.Get("X-Request-Id"); !strings.HasPrefix(id, "req_") {
		t.Fatalf("generated request id %q", id)
	}
	r := env.API("").WithHeader("X-Request-Id", "client-abc.123").Get(t, "/api/v1/courses")
	if got := r.Header.Get("X-Request-Id"); got != "client-abc.123" {
		t.Fatalf("echoed request id %q", got)
	}
	r = env.API("").WithHeader("X-Request-Id", "bad id with spaces").Get(t, "/api/v1/courses")
	if got := r.Header.Get("X-Request-Id"); !strings.HasPrefix(got, "req_") {
		t.Fatalf("an unsafe request id must be replaced, got %q", got)
	}
}

func TestEachEndpointRequiresItsScope(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Academy")
		course := env.CreatePublishedCourse(t, ws, "Course")
		all := []string{"read:courses", "read:students", "write:students", "read:orders", "write:enrollments", "read:analytics"}
		for _, ep := range []struct{ method, path, scope string }{
			{http.MethodGet, "/api/v1/courses", "read:courses"},
			{http.MethodGet, "/api/v1/courses/" + course, "read:courses"},
		} {
			var others []string
			for _, s := range all {
				if s != ep.scope {
					others = append(others, s)
				}
			}
			_, without := env.CreateKey(t, ws, others...)
			env.API(without).Do(t, ep.method, ep.path, nil).ExpectError(t, http.StatusForbidden, "forbidden")
			_, with := env.CreateKey(t, ws, ep.scope)
			env.API(with).Do(t, ep.method, ep.path, nil).Expect(t, http.StatusOK)
		}
	})
}

func TestOperatorListenerServesMetrics(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	ws := env.CreateWorkspace(t, "Academy")
	_, key := env.CreateKey(t, ws, "read:courses")
	env.API(key).Get(t, "/api/v1/courses").Expect(t, http.StatusOK)
	env.API(key).Get(t, "/api/v1/courses/crs_nope").Expect(t, http.StatusNotFound)
	body := string(env.Admin().Get(t, "/metrics").Expect(t, http.StatusOK).Body)
	for _, want := range []string{
		`creatorapi_http_requests_total{listener="public",method="GET",route="/api/v1/courses",status="200"} 1`,
		`route="/api/v1/courses/:id",status="404"} 1`,
		`creatorapi_http_request_duration_seconds_bucket{listener="public"`,
		`go_goroutines`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
