package compose

import (
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/platform"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Analytics wires the analytics summary, computed from the source tables for now.
func Analytics() fx.Option {
	return fx.Module("analytics",
		fx.Provide(
			sqlstore.NewAnalytics,
			func(rm *sqlstore.Analytics, c platform.Clock) analytics.Application { return analytics.New(rm, c) },
			apiEndpoints(v1.AnalyticsEndpoints),
		),
	)
}
