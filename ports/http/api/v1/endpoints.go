package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Prefix is where the version lives.
const Prefix = "/api/v1"

// Endpoint is one public endpoint and the scope it requires.
type Endpoint struct {
	Method  string
	Path    string // relative to Prefix
	Scope   keys.Scope
	Handler fiber.Handler
}

// AnyScope marks an endpoint that any valid key may call, whatever its scopes (the
// sandbox's test helpers: their own guard is the key's mode).
const AnyScope keys.Scope = ""

// Register mounts the endpoints. Check order: authentication (401), then the guards
// (rate limits), then the route (404/405), the scope (403), and the handler's own
// validation (422) and lookups (404). Every POST is Idempotent (its Idempotency-Key
// checked after the scope), whoever adds it.
func Register(app *fiber.App, auth fiber.Handler, guards []fiber.Handler, idem IdempotentRequests, endpoints []Endpoint) {
	args := []any{"/api", auth}
	for _, g := range guards {
		args = append(args, g)
	}
	app.Use(args...)
	routes := make([]web.Route, len(endpoints))
	for i, e := range endpoints {
		var handlers []fiber.Handler
		if e.Scope != AnyScope {
			handlers = append(handlers, RequireScope(e.Scope))
		}
		if e.Method == fiber.MethodPost {
			handlers = append(handlers, Idempotent(idem))
		}
		handlers = append(handlers, e.Handler)
		routes[i] = web.Route{Method: e.Method, Path: Prefix + e.Path, Handlers: handlers}
	}
	web.Mount(app, routes)
}
