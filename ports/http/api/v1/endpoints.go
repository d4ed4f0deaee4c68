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
		handlers := []fiber.Handler{RequireScope(e.Scope), e.Handler}
		if e.Method == fiber.MethodPost {
			handlers = []fiber.Handler{RequireScope(e.Scope), Idempotent(idem), e.Handler}
		}
		routes[i] = web.Route{Method: e.Method, Path: Prefix + e.Path, Handlers: handlers}
	}
	web.Mount(app, routes)
}
