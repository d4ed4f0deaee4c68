package compose

import (
	"context"
	"log/slog"
	"time"

	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"github.com/creatorapi/creatorapi/adapters/observe"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/mail"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	wsquery "github.com/creatorapi/creatorapi/application/workspaces/query"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/ports/consumers"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Webhook background work and its periods.
const (
	webhookLease        = 30 * time.Second // > 10 s timeout + 5 s margin; a crash delays its claimed deliveries this long
	webhookRetention    = 30 * 24 * time.Hour
	webhookMaxRetryWait = 24 * time.Hour // cap on a 429's Retry-After
)

// WebhookDispatching says whether the dispatcher, notifier and pruning run in the
// background. Tests that drive time by hand replace it with {Background: false} and call
// Dispatcher.RunDue themselves.
type WebhookDispatching struct {
	Background bool
	Limits     adapterwebhooks.Limits
}

// Webhooks wires signed webhook delivery: endpoints, the fan-out consumer, the dispatcher,
// notices and retention.
func Webhooks() fx.Option {
	return fx.Module("webhooks",
		fx.Provide(
			func() WebhookDispatching {
				return WebhookDispatching{Background: true, Limits: adapterwebhooks.DefaultLimits}
			},
			func(k secrets.MasterKey) (*secrets.Box, error) { return secrets.NewBox(k.For("webhook-secrets/v1")) },
			fx.Annotate(func(db *sqldb.DB, box *secrets.Box) *sqlwebhooks.Subscriptions {
				return sqlwebhooks.NewSubscriptions(db, box)
			},
				fx.As(new(domainwebhooks.Repository))),
			fx.Annotate(sqlwebhooks.NewDeliveries, fx.As(new(domainwebhooks.Deliveries)), fx.As(new(query.DeliveryPages))),
			fx.Annotate(sqlwebhooks.NewLog, fx.As(new(query.DeliveryLog))),
			fx.Annotate(sqlwebhooks.NewHealth, fx.As(new(domainwebhooks.HealthStore))),
			fx.Annotate(sqlwebhooks.NewFailingAlerts, fx.As(new(domainwebhooks.FailingAlerts))),
			fx.Annotate(func(db *sqldb.DB, box *secrets.Box) *sqlwebhooks.Dispatch { return sqlwebhooks.NewDispatch(db, box) },
				fx.As(new(domainwebhooks.Dispatch))),
			fx.Annotate(sqlwebhooks.NewNotices, fx.As(new(domainwebhooks.Notices))),
			fx.Annotate(func(db *sqldb.DB, box *secrets.Box) *sqlwebhooks.Gates { return sqlwebhooks.NewGates(db, box) },
				fx.As(new(domainwebhooks.Gates))),
			fx.Annotate(sqlwebhooks.NewBackfills, fx.As(new(domainwebhooks.Backfills))),
			fx.Annotate(sqlwebhooks.NewHistory, fx.As(new(command.History))),
			func(db *sqldb.DB, box *secrets.Box) *sqlwebhooks.Receivers { return sqlwebhooks.NewReceivers(db, box) },
			fx.Annotate(sqlwebhooks.NewRetention, fx.As(new(command.Retention))),
			// Published to the platform's master key: the sealed secrets, re-sealed on rotation.
			fx.Annotate(sqlwebhooks.NewSecrets, fx.As(new(webhooks.SealedSecrets))),
			adapterwebhooks.NewSignal,
			func(cfg Config, l *slog.Logger) (command.Mailer, error) { return mail.New(cfg.SMTPURL, cfg.DataDir, l) },
			newWebhooksApp,
			func(cfg Config, d WebhookDispatching) *adapterwebhooks.Sender {
				return adapterwebhooks.NewSender(adapterwebhooks.Guard{AllowPrivate: cfg.WebhookAllowPrivate}, d.Limits.PerEndpoint)
			},
			func(a webhooks.Application, s *adapterwebhooks.Sender, c platform.Clock, l *slog.Logger, d WebhookDispatching, sig *adapterwebhooks.Signal, p secrets.Policy, k secrets.MasterKey, t *observe.Tracing, rcv *sqlwebhooks.Receivers) *adapterwebhooks.Dispatcher {
				disp := adapterwebhooks.NewDispatcher(a, s, c, l, d.Limits, sig).TraceWith(t.Tracer)
				disp.VerifyKeyWith(func(ctx context.Context) error { return p.StillOpens(ctx, k) })
				disp.AuthenticateWith(adapterwebhooks.NewReceiverAuth(rcv, s))
				return disp
			},
			operatorRoutes(operator.WebhookRoutes),
			operatorRoutes(operator.WebhookPacingRoutes),
			operatorRoutes(operator.WebhookHealthRoutes),
			eventConsumer(consumers.WebhookFanOut),
		),
	)
}

type webhooksParams struct {
	fx.In
	Config     Config
	Tx         platform.Transactor
	Subs       domainwebhooks.Repository
	Deliveries domainwebhooks.Deliveries
	Pages      query.DeliveryPages
	Log        query.DeliveryLog
	Health     domainwebhooks.HealthStore
	Alerts     domainwebhooks.FailingAlerts
	Publisher  platform.Publisher
	Dispatch   domainwebhooks.Dispatch
	Notices    domainwebhooks.Notices
	Gates      domainwebhooks.Gates
	Retention  command.Retention
	Workspaces wsquery.Directory
	Mailer     command.Mailer
	Signal     *adapterwebhooks.Signal
	Audit      platform.AuditTrail
	IDs        platform.IDs
	Clock      platform.Clock
	Observer   platform.Observer
	Limiter    *ratelimit.Limiter
	Versions   *platform.Versions
	Backfills  domainwebhooks.Backfills
	History    command.History
}

func newWebhooksApp(p webhooksParams) webhooks.Application {
	return webhooks.New(webhooks.Deps{
		Deps: command.Deps{
			Tx: p.Tx, Subs: p.Subs, Deliveries: p.Deliveries, Dispatch: p.Dispatch, Notices: p.Notices,
			Retention: p.Retention, Workspaces: modulelinks.WorkspaceOwners{Dir: p.Workspaces}, Mailer: p.Mailer, Waker: adapterwebhooks.CommitWaker{Signal: p.Signal},
			Handoff: adapterwebhooks.CommitWaker{Signal: p.Signal}, Audit: p.Audit, Gates: p.Gates,
			Publisher: p.Publisher, Alerts: p.Alerts, Backfills: p.Backfills, History: p.History,
			IDs: p.IDs, Clock: p.Clock, Observer: p.Observer, Versions: p.Versions,
			TestEvents: p.Limiter.PerWorkspace("test-events", domainwebhooks.TestEventsPerMinute),
			Settings: command.Settings{
				AllowHTTP:    p.Config.WebhookAllowPrivate,
				Policy:       domainwebhooks.Policy{Schedule: p.Config.WebhookRetrySchedule, MaxRetryAfter: webhookMaxRetryWait},
				DisableAfter: p.Config.WebhookDisableAfter,
				Lease:        webhookLease,
				Retention:    webhookRetention,
				DashboardURL: p.Config.PublicURL + "/dashboard",
			},
		},
		Pages:  p.Pages,
		Log:    p.Log,
		Health: p.Health,
	})
}
