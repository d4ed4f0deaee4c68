package compose

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/background"
	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/adapters/eventbus/outbox"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	"github.com/creatorapi/creatorapi/adapters/eventbus/wakeup"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/tlscerts"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/deprecations"
	"github.com/creatorapi/creatorapi/application/idempotency"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// What runs, in which order, and how it stops: this file is the whole list. Workers and
// Listen each build one background.Group, started in the order written under one fx
// hook and stopped in the reverse order (background.Group.Stop). Modules, which the
// one-shot CLI verbs start, holds no worker, only resources (the database and its
// migrations, the master key's proof, the Redis and NATS connections):
// TestOneShotVerbsStartNoWorker (cmd/creatorapi) holds it so. serve and demo run
// Modules, then Workers, then Listen, so on SIGTERM the listeners stop first (readiness
// says draining, requests in flight finish), then the workers, then the resources.

// The workers' periods.
const (
	keyUsageFlushEvery   = 10 * time.Second // bounds how stale a key's lastUsedAt can be in storage
	rateLimitSweepEvery  = 10 * time.Minute // counter rows live at most a day and this long
	webhookNoticesEvery  = 10 * time.Second
	webhookPruneEvery    = time.Hour
	webhookBackfillEvery = time.Second
	sunsetNoticesEvery   = time.Hour        // the thresholds are days apart
	signInPruneEvery     = time.Hour        // spent links, old requests and dead sessions
	signInMailEvery      = time.Second      // the sign-in page only queues; this answers it
	masterKeyWatchEvery  = 10 * time.Second // how soon an instance notices another rotated the key
	retentionEvery       = 10 * time.Minute // consumed outbox rows older than the retention go
)

// WorkerGroup is the background workers in start order (stop order reversed).
type WorkerGroup background.Group

// ListenerGroup is the listeners in start order (stop order reversed).
type ListenerGroup background.Group

// Workers runs the background side: serve, demo and the component tests.
func Workers() fx.Option {
	return fx.Options(fx.Provide(newWorkers), fx.Invoke(func(lc fx.Lifecycle, g WorkerGroup) { run(lc, background.Group(g)) }))
}

// Listen binds both listeners on start (failing fast when an address is taken) and
// drains them on stop.
func Listen() fx.Option {
	return fx.Options(fx.Provide(newListeners), fx.Invoke(func(lc fx.Lifecycle, g ListenerGroup) { run(lc, background.Group(g)) }))
}

// run is the one place a group meets fx's lifecycle.
func run(lc fx.Lifecycle, g background.Group) { lc.Append(fx.Hook{OnStart: g.Start, OnStop: g.Stop}) }

type workersParams struct {
	fx.In
	Config      Config
	DB          *sqldb.DB
	Logger      *slog.Logger
	Shutdowner  fx.Shutdowner
	Usage       *query.UsageBuffer
	Deprecated  deprecations.Application
	Limiter     *ratelimit.Limiter
	Dispatching WebhookDispatching
	Dispatcher  *adapterwebhooks.Dispatcher
	Webhooks    webhooks.Application
	Idempotency idempotency.Application
	Members     *sqlmembers.Store
	MembersApp  members.Application
	Clock       platform.Clock
	KeyPolicy   secrets.Policy
	Key         secrets.MasterKey
	Ledger      *router.Ledger
	Consumers   consumersParams
	Wakeup      *wakeup.Wakeup
	WMLogger    watermill.LoggerAdapter
	Retention   *outbox.Retention
	Router      *router.Router
	Forwarder   *natstransport.Forwarder // nil without a broker
}

func newWorkers(p workersParams) WorkerGroup {
	every := background.Chores(p.Logger)
	g := WorkerGroup{
		{Name: "database maintenance warnings", Worker: background.AtStart(func(ctx context.Context) error { return p.DB.WarnAboutMaintenance(ctx, p.Logger) })},
		// Stopped last: their final run writes what the stopping workers still counted.
		every("flush key usage", keyUsageFlushEvery, func(ctx context.Context) (int, error) { return 0, p.Usage.Flush(ctx) }),
		every("flush deprecated calls", keyUsageFlushEvery, p.Deprecated.Calls.Flush),
		every("send sunset notices", sunsetNoticesEvery, p.Deprecated.SendNotices),
		every("sweep rate limits", rateLimitSweepEvery, func(ctx context.Context) (int, error) { _, err := p.Limiter.Sweep(ctx); return 0, err }),
	}
	// Before the router, so that they stop after its drain: on SQLite the dispatcher's
	// last run needs the single writer a draining consumer may hold. Tests that drive time
	// by hand turn them off (WebhookDispatching.Background) and call RunDue themselves.
	if p.Dispatching.Background {
		g = append(g,
			background.Named{Name: "webhook dispatcher", Worker: background.Loop(p.Dispatcher.Run)},
			every("send webhook notices", webhookNoticesEvery, p.Webhooks.Commands.SendNotices.Handle),
			every("prune webhook log", webhookPruneEvery, p.Webhooks.Commands.PruneLog.Handle),
			every("run webhook backfills", webhookBackfillEvery, p.Webhooks.Commands.RunBackfill.Run))
	}
	g = append(g,
		every("prune sign-in state", signInPruneEvery, func(ctx context.Context) (int, error) {
			n, err := (sqlmembers.Sessions{Store: p.Members}).Prune(ctx, p.Clock.Now())
			return int(n), err
		}),
		every("purge idempotency records", idempotency.PurgeEvery, p.Idempotency.Purge.Handle),
		every("send sign-in links", signInMailEvery, func(ctx context.Context) (int, error) { return p.MembersApp.Commands.SendLinks.Handle(ctx, struct{}{}) }),
		background.Named{Name: "watch the master key", Worker: background.Every(masterKeyWatchEvery,
			p.KeyPolicy.Watch(p.Key, p.Logger, func() { _ = p.Shutdowner.Shutdown(fx.ExitCode(1)) }))},
		background.Named{Name: "retire inline consumer groups", Worker: background.AtStart(func(ctx context.Context) error {
			return p.Ledger.RetireInline(ctx, p.Consumers.Consumers, p.Logger)
		})})
	// Keeps the key and catalogue caches trusted (until it runs, every read asks the database).
	g = append(g, background.Named{Name: "cache invalidation listener", Worker: p.DB.Caches().Listener(p.Config.CacheListenURL)})
	if p.DB.Dialect == sqldb.Postgres { // wakes the router when other instances commit
		g = append(g, background.Named{Name: "postgres listener", Worker: wakeup.NewListener(p.DB.Writer.DB, p.Wakeup, p.WMLogger)})
	}
	// Retention before the router, so that it stops after it: on SQLite a retention run
	// waiting for the writer must not hold up the router's drain.
	g = append(g,
		every("events retention", retentionEvery, func(ctx context.Context) (int, error) { n, err := p.Retention.Run(ctx); return int(n), err }),
		background.Named{Name: "event router", Worker: p.Router})
	if p.Forwarder != nil {
		g = append(g, background.Named{Name: "jetstream forwarder", Worker: p.Forwarder})
	}
	return g
}

type listenersParams struct {
	fx.In
	Config     Config
	Public     PublicApp
	Operator   OperatorApp
	TLS        *tlscerts.Source // nil: plain HTTP
	Ready      *web.Readiness
	Logger     *slog.Logger
	Shutdowner fx.Shutdowner
	Hangup     *web.Hangup // the public listener's long-lived responses (the events feed)
}

func newListeners(p listenersParams) ListenerGroup {
	failed := func(error) { _ = p.Shutdowner.Shutdown(fx.ExitCode(1)) }
	listener := func(name, addr string, app *fiber.App, cfg *tls.Config, hangup *web.Hangup, outer ...func(net.Listener) net.Listener) background.Named {
		return background.Named{Name: name + " listener", Worker: &web.Listener{Name: name, Addr: addr, App: app, TLS: cfg, Outer: outer,
			Limits: p.Config.HTTPLimits, Logger: p.Logger, Failed: failed, Hangup: hangup}}
	}
	var public []func(net.Listener) net.Listener
	if p.Config.ClientAddresses.Mode == web.ClientIPProxyProtocol {
		public = append(public, p.Config.ClientAddresses.ProxyProtocol)
	}
	var g ListenerGroup
	if src := p.TLS; src == nil {
		g = append(g, listener("public", p.Config.HTTPAddr, p.Public.App, nil, p.Hangup, public...))
	} else {
		_, httpsPort, _ := net.SplitHostPort(p.Config.TLS.HTTPSAddr)
		redirect := web.NewRedirectApp(httpsPort, src.HTTPChallenge, web.NewApp("creatorapi-http", p.Logger))
		g = append(g, listener("public", p.Config.TLS.HTTPSAddr, p.Public.App, web.ServerTLS(src.GetCertificate, src.ACME), p.Hangup, public...),
			listener("http", p.Config.HTTPAddr, redirect, nil, nil, public...))
		if src.Worker != nil { // after the listeners, which answer the ACME challenges
			g = append(g, background.Named{Name: "TLS certificates", Worker: src.Worker})
		}
	}
	return append(g,
		listener("operator", p.Config.AdminAddr, p.Operator.App, nil, nil),
		// Last started, so first stopped: /readyz answers 503 at once and the listeners
		// keep serving for CREATORAPI_SHUTDOWN_DELAY, so that a load balancer stops sending.
		background.Named{Name: "readiness drain", Worker: web.DrainNotice{Ready: p.Ready, Delay: p.Config.ShutdownDelay, Logger: p.Logger}})
}
