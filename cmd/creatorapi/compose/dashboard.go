package compose

import (
	"context"
	wsquery "github.com/creatorapi/creatorapi/application/workspaces/query"
	domainmembers "github.com/creatorapi/creatorapi/domain/members"
	"log/slog"
	"net/http"
	"time"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlaudit "github.com/creatorapi/creatorapi/adapters/sql/audit"
	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/analytics"
	analyticsquery "github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/ports/http/dashboard"
)

// PublicMount adds pages to the public listener (before its 404 fallback).
type PublicMount func(app *fiber.App)

// Dashboard wires the workspace dashboard: people and sign-in (members), the audit log,
// and the dashboard port over them and the keys module.
func Dashboard() fx.Option {
	return fx.Module("dashboard",
		fx.Provide(
			fx.Annotate(sqlaudit.NewLog, fx.As(new(platform.AuditTrail)), fx.As(new(audit.Reader))),
			// The members store's three ports; the store itself too, for pruning.
			sqlmembers.NewStore,
			func(s *sqlmembers.Store) domainmembers.Rows { return sqlmembers.Rows{Store: s} },
			func(s *sqlmembers.Store) domainmembers.Links { return sqlmembers.Links{Store: s} },
			func(s *sqlmembers.Store) domainmembers.Sessions { return sqlmembers.Sessions{Store: s} },
			newMembersApp,
			func(r audit.Reader, m members.Application) audit.ListHandler {
				return audit.NewListHandler(r, ownerAccess{m})
			},
			fx.Annotate(newDashboardMount, fx.ResultTags(`group:"public_mounts"`)),
		),
	)
}

// signInPruneEvery is how often spent links, old requests and dead sessions are deleted.
const signInPruneEvery = time.Hour

// pruneSignIns runs with the workers (serve, demo), not with one-shot CLI commands.
func pruneSignIns(lc fx.Lifecycle, store *sqlmembers.Store, clock platform.Clock, logger *slog.Logger) {
	runEvery(lc, signInPruneEvery, func(ctx context.Context) {
		if _, err := (sqlmembers.Sessions{Store: store}).Prune(ctx, clock.Now()); err != nil {
			logger.Warn("prune sign-in state", "error", err)
		}
	})
}

type membersParams struct {
	fx.In
	Config   Config
	Tx       platform.Transactor
	Rows     domainmembers.Rows
	Links    domainmembers.Links
	Sessions domainmembers.Sessions
	Dir      wsquery.Directory
	Audit    platform.AuditTrail
	Mailer   webhookcmd.Mailer
	IDs      platform.IDs
	Clock    platform.Clock
}

func newMembersApp(p membersParams) members.Application {
	return members.New(membercmd.Deps{
		Tx: p.Tx, Members: domainmembers.Directory{Rows: p.Rows, Workspaces: memberWorkspaces{p.Dir}}, Links: p.Links, Sessions: p.Sessions,
		Audit: p.Audit, Mailer: noticeMailer{p.Mailer, p.IDs, p.Clock}, Clock: p.Clock, PublicURL: p.Config.PublicURL,
	})
}

type dashboardParams struct {
	fx.In
	Config    Config
	Members   members.Application
	Keys      keys.Application
	Audit     audit.ListHandler
	Clock     platform.Clock
	Logger    *slog.Logger
	DB        *sqldb.DB
	Webhooks  webhooks.Application
	Subs      domainwebhooks.Repository
	Analytics analytics.Application
	Daily     analyticsquery.DailyReadModel
	MasterKey secrets.MasterKey
}

func newDashboardMount(p dashboardParams) (PublicMount, error) {
	d, err := dashboard.New(dashboard.Deps{PublicURL: p.Config.PublicURL, Members: p.Members, Keys: p.Keys,
		Audit: p.Audit, Webhooks: p.Webhooks, RequestHeaders: requestHeaders(p.Subs),
		Summary: p.Analytics.Queries.GetSummary, Daily: analyticsquery.NewGetDailyHandler(p.Daily, p.Clock), Clock: p.Clock, Logger: p.Logger,
		CSRFKey: p.MasterKey.For("dashboard-csrf/v1")})
	if err != nil {
		return nil, err
	}
	return d.Register, nil
}

// ownerAccess adapts the members module to the audit module's access port.
type ownerAccess struct{ m members.Application }

func (o ownerAccess) RequireOwner(ctx context.Context, workspaceID string) error {
	_, err := o.m.Queries.ListMembers.Handle(ctx, workspaceID)
	return err
}

// noticeMailer sends the members module's e-mail through the notice mailer (SMTP, or
// the data folder and a log line).
type noticeMailer struct {
	mailer webhookcmd.Mailer
	ids    platform.IDs
	clock  platform.Clock
}

func (n noticeMailer) Send(ctx context.Context, to, subject, body string) error {
	return n.mailer.Send(ctx, domainwebhooks.Notice{ID: n.ids.New("msg"), To: to, Subject: subject, Body: body, CreatedAt: n.clock.Now()})
}

// requestHeaders rebuilds the headers an attempt sent with the dispatcher's own signer:
// the secrets that signed at at (a secret rotated out twice since is no longer known).
func requestHeaders(subs domainwebhooks.Repository) func(context.Context, string, *domainwebhooks.Delivery, time.Time) (http.Header, error) {
	return func(ctx context.Context, ws string, d *domainwebhooks.Delivery, at time.Time) (http.Header, error) {
		s, err := subs.Get(ctx, ws, d.SubscriptionID)
		if err != nil {
			return nil, err
		}
		return adapterwebhooks.Headers(adapterwebhooks.Message{URL: s.URL, DeliveryID: d.ID, EventID: d.EventID, EventType: d.EventType,
			Body: d.Payload, Secrets: s.Signing(at), Timestamp: at.Unix()}), nil
	}
}
