package compose

import (
	"context"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"

	"go.uber.org/fx"

	ratestore "github.com/creatorapi/creatorapi/adapters/ratelimit"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// RateLimits wires the quotas of the public API: the counting store chosen by
// CREATORAPI_RATE_LIMIT_STORE, the limiter, and its two guards (the sweeper runs with the workers).
func RateLimits() fx.Option {
	return fx.Module("ratelimit",
		fx.Provide(
			newRateCounter,
			ratelimit.NewLimiter,
			func(l *ratelimit.Limiter) v1.RateLimiter { return l },
			func(l *ratelimit.Limiter) v1.FailedAuthBudget { return l.FailedAuth(ratelimit.PublicListener) },
			fx.Annotate(v1.FailedAuthRateLimit, fx.ResultTags(`group:"api_pre_auth"`)),
			fx.Annotate(v1.KeyRateLimit, fx.ResultTags(`group:"api_guards"`)),
		),
	)
}

// newRateCounter counts in memory on one instance, and in Redis or the database when
// instances share the quota (config.RateLimitStoreFor resolves "auto").
func newRateCounter(lc fx.Lifecycle, cfg Config, db *sqldb.DB, logger *slog.Logger, registry *prometheus.Registry) (ratelimit.Counter, error) {
	switch cfg.RateLimitStoreFor(db.Dialect == sqldb.Postgres) {
	case "redis":
		r, err := ratestore.NewRedis(cfg.RedisURL, cfg.RedisPrefix, 0)
		if err != nil {
			return nil, err
		}
		// While Redis is away each instance counts in memory (docs/rate-limits.md, "Redis away");
		// blocks leased to this instance go back when it stops ("Blocks").
		res := ratestore.NewResilient(r, logger, cfg.RedisProbeInterval)
		lc.Append(fx.Hook{OnStart: res.Ping, OnStop: func(ctx context.Context) error { res.Close(); return r.Close(ctx) }})
		return res, res.Register(registry)
	case "database":
		// Blocks leased to this instance go back when it stops (docs/rate-limits.md, "Blocks").
		d := ratestore.NewDatabase(db, 0)
		lc.Append(fx.Hook{OnStop: d.Close})
		return d, nil
	}
	return ratestore.NewMemory(), nil
}
