package compose

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"

	"github.com/gofiber/fiber/v2"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/keys"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
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
			newAdminToken,
			func() (*v1.PageCache, error) { return v1.NewPageCache(2048) },
			prometheus.NewRegistry,
			web.NewMetrics,
			newPublicApp,
			newOperatorApp,
		),
	)
}

type publicParams struct {
	fx.In
	Logger    *slog.Logger
	Metrics   *web.Metrics
	DB        *sqldb.DB
	Keys      keys.Application
	Endpoints [][]v1.Endpoint `group:"api_v1"`
	Guards    []fiber.Handler `group:"api_guards"`
	PreAuth   []fiber.Handler `group:"api_pre_auth"` // run before authentication (failed-auth limits)
}

func newPublicApp(p publicParams) PublicApp {
	app := web.NewApp("creatorapi", p.Logger)
	app.Use(p.Metrics.Middleware("public"))
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	app.Get("/readyz", func(c *fiber.Ctx) error {
		if err := p.DB.Reader.PingContext(c.UserContext()); err != nil {
			return fmt.Errorf("readyz: %w", err)
		}
		return c.JSON(fiber.Map{"status": "ready"})
	})
	var endpoints []v1.Endpoint
	for _, group := range p.Endpoints {
		endpoints = append(endpoints, group...)
	}
	for _, h := range p.PreAuth {
		app.Use("/api", h)
	}
	v1.Register(app, v1.Authenticate(p.Keys.Queries.Authenticate), p.Guards, endpoints)
	app.Use(web.NotFoundFallback())
	return PublicApp{app}
}

type operatorParams struct {
	fx.In
	Logger  *slog.Logger
	Metrics *web.Metrics
	Token   AdminToken
	Routes  []operator.Routes `group:"operator"`
}

func newOperatorApp(p operatorParams) OperatorApp {
	app := web.NewApp("creatorapi-operator", p.Logger)
	app.Use(p.Metrics.Middleware("operator"))
	app.Get("/metrics", p.Metrics.Handler()) // unauthenticated, like most scrape targets: keep the listener private
	operator.Register(app, string(p.Token), p.Routes)
	app.Use(web.NotFoundFallback())
	return OperatorApp{app}
}

func newAdminToken(cfg Config) (AdminToken, error) {
	if cfg.AdminToken != "" {
		return AdminToken(cfg.AdminToken), nil
	}
	t, err := secrets.LoadOrCreateToken(cfg.DataDir, "admin.token")
	return AdminToken(t), err
}

// Listen binds both listeners on start (failing fast when an address is taken) and
// drains them on stop.
func Listen() fx.Option {
	return fx.Invoke(func(lc fx.Lifecycle, cfg Config, pub PublicApp, op OperatorApp, logger *slog.Logger, sd fx.Shutdowner) {
		serve := func(name, addr string, app *fiber.App) fx.Hook {
			return fx.Hook{
				OnStart: func(context.Context) error {
					ln, err := net.Listen("tcp", addr)
					if err != nil {
						return fmt.Errorf("%s listener on %s: %w", name, addr, err)
					}
					logger.Info("listening", "listener", name, "addr", ln.Addr().String())
					go func() {
						if err := app.Listener(ln); err != nil && !errors.Is(err, net.ErrClosed) {
							logger.Error("listener stopped", "listener", name, "error", err)
							_ = sd.Shutdown(fx.ExitCode(1))
						}
					}()
					return nil
				},
				OnStop: func(ctx context.Context) error { return app.ShutdownWithContext(ctx) },
			}
		}
		lc.Append(serve("public", cfg.HTTPAddr, pub.App))
		lc.Append(serve("operator", cfg.AdminAddr, op.App))
	})
}
