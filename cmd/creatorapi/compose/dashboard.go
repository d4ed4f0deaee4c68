package compose

import (
	"log/slog"

	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlaudit "github.com/creatorapi/creatorapi/adapters/sql/audit"
	sqlmembers "github.com/creatorapi/creatorapi/adapters/sql/members"
	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/deprecations"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/workspaces"
	wsquery "github.com/creatorapi/creatorapi/application/workspaces/query"
	domainmembers "github.com/creatorapi/creatorapi/domain/members"
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
			func(s *sqlmembers.Store) domainmembers.LinkRequests { return sqlmembers.Outbox{Store: s} },
			newMembersApp,
			func(r audit.Reader, m members.Application, obs platform.Observer) audit.Application {
				return audit.New(audit.Deps{Reader: r, Access: modulelinks.OwnerAccess{App: m}, Observer: obs})
			},
			fx.Annotate(newDashboardMount, fx.ResultTags(`group:"public_mounts"`)),
		),
	)
}

type membersParams struct {
	fx.In
	Config   Config
	Kit      platform.Kit
	Rows     domainmembers.Rows
	Links    domainmembers.Links
	Requests domainmembers.LinkRequests
	Sessions domainmembers.Sessions
	Dir      wsquery.Directory
	Audit    platform.AuditTrail
	Mailer   webhookcmd.Mailer
}

func newMembersApp(p membersParams) members.Application {
	return members.New(membercmd.Deps{
		Kit: p.Kit, Members: domainmembers.Directory{Rows: p.Rows, Workspaces: modulelinks.MemberWorkspaces{Dir: p.Dir}}, Links: p.Links,
		Requests: p.Requests, Sessions: p.Sessions, Audit: p.Audit, Mailer: modulelinks.NoticeMailer{Mailer: p.Mailer, IDs: p.Kit.IDs, Clock: p.Kit.Clock},
		PublicURL: p.Config.PublicURL,
	})
}

type dashboardParams struct {
	fx.In
	Config     Config
	Members    members.Application
	Keys       keys.Application
	Audit      audit.Application
	Clock      platform.Clock
	Logger     *slog.Logger
	Webhooks   webhooks.Application
	Subs       domainwebhooks.Repository
	Analytics  analytics.Application
	MasterKey  secrets.MasterKey
	Deprecated deprecations.Application
	Workspaces workspaces.Application
}

func newDashboardMount(p dashboardParams) (PublicMount, error) {
	d, err := dashboard.New(dashboard.Deps{PublicURL: p.Config.PublicURL, Members: p.Members, Keys: p.Keys,
		Audit: p.Audit, Webhooks: p.Webhooks, RequestHeaders: adapterwebhooks.RequestHeaders(p.Subs),
		Summary: p.Analytics.Queries.GetSummary, Daily: p.Analytics.Queries.GetDaily, Clock: p.Clock, Logger: p.Logger,
		CSRFKey: p.MasterKey.For("dashboard-csrf/v1"), DeprecatedCalls: p.Deprecated.Queries.ListCalls,
		OpenSandbox: p.Workspaces.Commands.OpenSandbox})
	if err != nil {
		return nil, err
	}
	return d.Register, nil
}
