package compose

import (
	"context"
	"log/slog"
	"time"

	"go.uber.org/fx"

	sqlkeys "github.com/creatorapi/creatorapi/adapters/sql/keys"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/keys/command"
	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// keyUsageFlushEvery bounds how stale a key's lastUsedAt can be in storage.
const keyUsageFlushEvery = 10 * time.Second

// Keys wires API keys: issuing, revoking, authenticating. Its adapters are provided as
// the module's ports (fx.As), so a test swaps them with one fx.Replace (tests/testenv:
// MemoryKeys). Uses are buffered in memory (query.UsageBuffer) and flushed to the
// usage store periodically.
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
		fx.Invoke(flushKeyUsage),
	)
}

// flushKeyUsage writes last-use times and request counts periodically and once more on stop.
func flushKeyUsage(lc fx.Lifecycle, usage *query.UsageBuffer, logger *slog.Logger) {
	runEvery(lc, keyUsageFlushEvery, func(ctx context.Context) {
		if err := usage.Flush(ctx); err != nil {
			logger.Warn("flush key usage", "error", err)
		}
	})
}

// runEvery runs fn on a ticker between start and stop, and once more while stopping.
func runEvery(lc fx.Lifecycle, every time.Duration, fn func(ctx context.Context)) {
	stop := make(chan struct{})
	done := make(chan struct{})
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			go func() {
				defer close(done)
				t := time.NewTicker(every)
				defer t.Stop()
				for {
					select {
					case <-stop:
						return
					case <-t.C:
						fn(context.Background())
					}
				}
			}()
			return nil
		},
		OnStop: func(ctx context.Context) error {
			close(stop)
			<-done
			fn(ctx)
			return nil
		},
	})
}
