package compose

import (
	"log/slog"
	"slices"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/observe"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlidempotency "github.com/creatorapi/creatorapi/adapters/sql/idempotency"
	"github.com/creatorapi/creatorapi/application/idempotency"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/api/v1/openapi"
	"github.com/creatorapi/creatorapi/ports/http/docs"
	"github.com/creatorapi/creatorapi/ports/http/operator"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// PublicApp serves /api/v1, the dashboard and health checks.
type PublicApp struct{ *fiber.App }

// OperatorApp serves /internal/v1 on the operator listener.
type OperatorApp struct{ *fiber.App }

// AdminToken is the operator API's bearer token.
type AdminToken string

// apiEndpoints provides a module's public endpoints into the api_v1 group.
func apiEndpoints(constructor any) any {
	return fx.Annotate(constructor, fx.ResultTags(`group:"api_v1"`))
}

// operatorRoutes provides a module's operator routes into the operator group.
func operatorRoutes(constructor any) any {
	return fx.Annotate(constructor, fx.ResultTags(`group:"operator"`))
}

// eventConsumer provides an events.Consumer into the event_consumers group.
func eventConsumer(constructor any) any {
	return fx.Annotate(constructor, fx.ResultTags(`group:"event_consumers"`))
}

// HTTP builds both fiber apps from the routes the modules contributed.
func HTTP() fx.Option {
	return fx.Module("http",
		fx.Provide(
			web.NewDecoder,
			func(k secrets.MasterKey) (*web.Cursors, error) { return web.NewCursors(k.For("cursor/v1")) },
			func(cfg Config) (AdminToken, error) {
				t, err := secrets.AdminToken(cfg.AdminToken, cfg.DataDir)
				return AdminToken(t), err
			},
			func() (*v1.PageCache, error) { return v1.NewPageCache(2048) },
			prometheus.NewRegistry,
			web.NewMetrics,
			openapi.NewServed, // converted on the first request, like the reference below
			func(doc openapi.Served) *docs.Reference { return docs.NewReference(doc.JSON) },
			idempotency.New, fx.Annotate(sqlidempotency.NewStore, fx.As(new(idempotency.Store))), // Idempotency-Key on every POST
			newPublicApp,
			newOperatorApp,
			newTLSSource,
		),
	)
}

type publicParams struct {
	fx.In
	Config    Config
	Logger    *slog.Logger
	Metrics   *web.Metrics
	Ready     *web.Readiness
	Keys      keys.Application
	Idem      idempotency.Application
	OpenAPI   openapi.Served
	Docs      *docs.Reference
	Endpoints [][]v1.Endpoint `group:"api_v1"`
	Guards    []fiber.Handler `group:"api_guards"`
	PreAuth   []fiber.Handler `group:"api_pre_auth"`  // run before authentication (failed-auth limits)
	Mounts    []PublicMount   `group:"public_mounts"` // the dashboard
	Tracing   *observe.Tracing
}

func newPublicApp(p publicParams) PublicApp {
	app := web.NewApp("creatorapi", p.Logger)
	app.Use("/api", web.Trace(p.Tracing.Tracer))   // W3C trace context in, a server span when exporting
	app.Use(p.Config.ClientAddresses.Middleware()) // web.ClientIP: limits, audit and logs
	app.Use(p.Metrics.Middleware("public"))
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	app.Get("/readyz", p.Ready.Handler())
	endpoints := slices.Concat(p.Endpoints...)
	openapi.Mount(app, p.OpenAPI) // public: mounted before authentication and rate limits
	docs.Mount(app, p.Docs)       // the human reference, rendered from the same document
	for _, h := range p.PreAuth {
		app.Use("/api", h)
	}
	v1.Register(app, v1.Authenticate(p.Keys.Queries.Authenticate), p.Guards, p.Idem.Run, endpoints)
	web.AllowLongWrites(app, v1.Prefix+v1.EventStreamPath, v1.StreamWriteTimeout)
	for _, mount := range p.Mounts {
		mount(app)
	}
	app.Use(web.NotFoundFallback())
	return PublicApp{app}
}

type operatorParams struct {
	fx.In
	Config  Config
	Logger  *slog.Logger
	Metrics *web.Metrics
	Token   AdminToken
	Limiter *ratelimit.Limiter
	Dir     platform.WorkspaceDirectory
	Routes  []operator.Routes `group:"operator"`
}

func newOperatorApp(p operatorParams) OperatorApp {
	return OperatorApp{operator.NewApp(operator.AppDeps{Logger: p.Logger, Metrics: p.Metrics, Pprof: p.Config.Pprof,
		AdminToken: string(p.Token), Limiter: p.Limiter.FailedAuth(ratelimit.OperatorListener), Dir: p.Dir, Routes: p.Routes})}
}
