// Package public assembles the public listener's fiber app: health checks, the OpenAPI
// document and its reference, the versioned API behind authentication, then the pages
// mounted after it (the dashboard) and the 404 fallback.
package public

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"

	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
	"github.com/creatorapi/creatorapi/ports/http/docs"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Deps is what the public app serves.
type Deps struct {
	Logger       *slog.Logger
	Metrics      *web.Metrics
	Ready        *web.Readiness
	Authenticate v1.Authenticator
	OpenAPI      *openapi.Document
	Docs         *docs.Reference
	Endpoints    []v1.Endpoint
	Guards       []fiber.Handler // after authentication (scopes, rate limits)
	PreAuth      []fiber.Handler // before authentication (failed-auth limits)
	Mounts       []func(*fiber.App)
}

// NewApp builds the app in the order its routes must match.
func NewApp(d Deps) *fiber.App {
	app := web.NewApp("creatorapi", d.Logger)
	app.Use(d.Metrics.Middleware("public"))
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	app.Get("/readyz", d.Ready.Handler())
	openapi.Mount(app, d.OpenAPI) // public: mounted before authentication and rate limits
	docs.Mount(app, d.Docs)       // the human reference, rendered from the same document
	for _, h := range d.PreAuth {
		app.Use("/api", h)
	}
	v1.Register(app, v1.Authenticate(d.Authenticate), d.Guards, d.Endpoints)
	for _, mount := range d.Mounts {
		mount(app)
	}
	app.Use(web.NotFoundFallback())
	return app
}
