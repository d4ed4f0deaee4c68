package compose

import (
	"go.uber.org/fx"

	sqlkeys "github.com/creatorapi/creatorapi/adapters/sql/keys"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Keys wires API keys: issuing, revoking, authenticating. Its adapters are provided as
// the module's ports (fx.As), so a test swaps them with one fx.Replace (tests/testenv:
// MemoryKeys). Uses are buffered in memory (query.UsageBuffer) and flushed to the
// usage store periodically (workers.go).
func Keys() fx.Option {
	return fx.Module("keys",
		fx.Provide(
			fx.Annotate(sqlkeys.NewRepository, fx.As(new(domainkeys.Repository)), fx.As(new(query.KeyPages))),
			fx.Annotate(sqlkeys.NewUsage, fx.As(new(query.UsageStore)), fx.As(new(query.RequestCounts))),
			query.NewUsageBuffer,
			func(kit platform.Kit, repo domainkeys.Repository, pages query.KeyPages, requests query.RequestCounts,
				usage *query.UsageBuffer, ws platform.WorkspaceDirectory, audit platform.AuditTrail) keys.Application {
				return keys.New(keys.Deps{
					Deps:  command.Deps{Kit: kit, Repo: repo, Workspaces: ws, Audit: audit},
					Pages: pages, Usage: usage, Requests: requests,
				})
			},
			operatorRoutes(operator.KeyRoutes),
		),
	)
}
