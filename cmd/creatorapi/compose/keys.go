package compose

import (
	"context"
	"log/slog"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/keys"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// keyUsageFlushEvery bounds how stale a key's lastUsedAt can be in storage.
const keyUsageFlushEvery = 10 * time.Second

// Keys wires API keys: issuing, revoking, authenticating.
func Keys() fx.Option {
	return fx.Module("keys",
		fx.Provide(
			sqlstore.NewKeys,
			sqlstore.NewKeyUsage,
			func(tx platform.Transactor, repo *sqlstore.Keys, ws platform.WorkspaceDirectory, usage *sqlstore.KeyUsage, audit platform.AuditTrail, i platform.IDs, c platform.Clock) keys.Application {
				return keys.New(keys.Deps{Tx: tx, Repo: repo, Pages: repo, Workspaces: ws, Usage: usage, Audit: audit, IDs: i, Clock: c})
			},
			operatorRoutes(operator.KeyRoutes),
		),
		fx.Invoke(flushKeyUsage),
	)
}

// flushKeyUsage writes last-use times periodically and once more on stop.
func flushKeyUsage(lc fx.Lifecycle, usage *sqlstore.KeyUsage, logger *slog.Logger) {
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
