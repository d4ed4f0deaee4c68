package tests

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The catalogue names the routes that really emit each event: every "METHOD /path" after
// "Routes:" in a cause is mounted, on the public listener (/api/v1) or the operator
// listener (/internal/v1).
func TestWebhookCatalogueNamesMountedRoutes(t *testing.T) {
	env := testenv.Start(t, testenv.NewSQLiteURL(t))
	mounted := map[string]bool{}
	for _, app := range []*fiber.App{env.Public.App, env.Operator.App} {
		for _, r := range app.GetRoutes(true) {
			mounted[r.Method+" "+paramsAsBraces(r.Path)] = true
		}
	}
	route := regexp.MustCompile(`(GET|POST|PATCH|PUT|DELETE) (/[^\s,;()]+[^\s,;().])`)
	for _, e := range catalog.Entries {
		_, routes, ok := strings.Cut(e.Cause, "Routes:")
		if strings.HasPrefix(strings.TrimSpace(routes), "none (the dispatcher decides it)") {
			continue // an operational type: caused by attempts, not by a route
		}
		found := route.FindAllStringSubmatch(routes, -1)
		if !ok || len(found) == 0 {
			t.Errorf("%s names no route: %q", e.Type, e.Cause)
		}
		for _, m := range found {
			if key := m[1] + " " + paramsAsBraces(m[2]); !mounted[key] {
				t.Errorf("%s names %s, which no listener mounts", e.Type, key)
			}
		}
	}
}

// paramsAsBraces writes every path parameter as {}: fiber's :id and the docs' {id} alike.
func paramsAsBraces(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if strings.HasPrefix(p, ":") || strings.HasPrefix(p, "{") {
			parts[i] = "{}"
		}
	}
	return strings.Join(parts, "/")
}
