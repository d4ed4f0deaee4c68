package compose

import (
	"github.com/gofiber/fiber/v2"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	sqldeprecations "github.com/creatorapi/creatorapi/adapters/sql/deprecations"
	"github.com/creatorapi/creatorapi/application/deprecations"
	"github.com/creatorapi/creatorapi/application/deprecations/command"
	"github.com/creatorapi/creatorapi/application/platform"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	wsquery "github.com/creatorapi/creatorapi/application/workspaces/query"
	domaindeprecations "github.com/creatorapi/creatorapi/domain/deprecations"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Deprecations wires the version registry (a test replaces *platform.Versions), the
// public API's deprecation guard, the per-key counts of deprecated calls and the sunset
// notices (their workers: workers.go).
func Deprecations() fx.Option {
	return fx.Module("deprecations", fx.Provide(platform.DefaultVersions,
		fx.Annotate(sqldeprecations.NewStore, fx.As(new(domaindeprecations.Repository))),
		func(r domaindeprecations.Repository, dir wsquery.Directory, m webhookcmd.Mailer, kit platform.Kit, cfg Config) deprecations.Application {
			return deprecations.New(command.Deps{Repo: r, Owners: modulelinks.WorkspaceOwners{Dir: dir}, Clock: kit.Clock,
				Mailer: modulelinks.NoticeMailer{Mailer: m, IDs: kit.IDs, Clock: kit.Clock}, DashboardURL: cfg.PublicURL + "/dashboard"}, kit.Observer)
		},
		fx.Annotate(func(v *platform.Versions, a deprecations.Application, c platform.Clock) fiber.Handler {
			return v1.Deprecations(v, a.Calls, c)
		}, fx.ResultTags(`group:"api_guards"`)),
	))
}
