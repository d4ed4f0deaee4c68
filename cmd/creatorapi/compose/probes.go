package compose

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/natstransport"
	"github.com/creatorapi/creatorapi/adapters/observe"
	ratestore "github.com/creatorapi/creatorapi/adapters/ratelimit"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/ratelimit"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/buildinfo"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

// Probes provides what the platform's operators watch: the readiness probe (/readyz)
// and the build-info metric on /metrics.
func Probes() fx.Option {
	return fx.Module("probes",
		fx.Provide(newReadiness),
		fx.Invoke(func(r *prometheus.Registry) error {
			b := buildinfo.Read()
			return observe.RegisterBuildInfo(r, b.Version, b.Revision, b.GoVersion)
		}),
		fx.Invoke(func(db *sqldb.DB, registry *prometheus.Registry) error { return db.Caches().Register(registry) }),
	)
}

// newReadiness checks what this instance needs to serve: the database, the schema at
// this binary's version (or newer, during a rolling upgrade), Redis when it counts the
// rate limits, and the NATS broker when events travel through it (while it is away the
// instance still takes commands, the outbox keeps the events, but it reports unready).
func newReadiness(db *sqldb.DB, counter ratelimit.Counter, broker *natstransport.Broker, logger *slog.Logger) *web.Readiness {
	checks := []web.Check{
		{Name: "database", Run: func(ctx context.Context) error { return db.Reader.PingContext(ctx) }},
		{Name: "migrations", Run: func(ctx context.Context) error {
			current, expected, err := db.MigrationStatus(ctx)
			if err != nil {
				return err
			}
			if current < expected {
				return web.Unready(fmt.Sprintf("at version %d, this build needs %d", current, expected))
			}
			return nil
		}},
	}
	if r, ok := counter.(*ratestore.Resilient); ok {
		checks = append(checks, web.Check{Name: "redis", Run: func(context.Context) error {
			if r.Degraded() { // the background probe asks Redis; /readyz only reports
				return web.Degraded("unreachable: counting rate limits per instance in memory")
			}
			return nil
		}})
	}
	if broker != nil {
		checks = append(checks, web.Check{Name: "broker", Run: func(ctx context.Context) error {
			err := broker.Ping(ctx)
			if d := natstransport.Degraded(""); errors.As(err, &d) {
				return web.Degraded(string(d)) // served through: one node of the cluster is down
			}
			return err
		}})
	}
	return web.NewReadiness(logger, checks...)
}
