package operator

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/pprof"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// AppDeps is what the operator listener serves.
type AppDeps struct {
	Logger     *slog.Logger
	Metrics    *web.Metrics
	Pprof      bool // /debug/pprof, for profiling under load (make bench); off by default
	AdminToken string
	Limiter    FailedAuthLimiter
	Dir        platform.WorkspaceDirectory
	Routes     []Routes
}

// NewApp builds the operator listener's app: metrics, optional pprof, the operator API
// behind the admin token, and the 404 fallback.
func NewApp(d AppDeps) *fiber.App {
	app := web.NewApp("creatorapi-operator", d.Logger)
	app.Use(d.Metrics.Middleware("operator"))
	app.Get("/metrics", d.Metrics.Handler()) // unauthenticated, like most scrape targets: keep the listener private
	if d.Pprof {
		app.Use(pprof.New())
	}
	Register(app, d.AdminToken, d.Limiter, d.Dir, d.Routes)
	app.Use(web.NotFoundFallback())
	return app
}
