package compose

import (
	"context"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/adapters/watermill"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/ports/consumers"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Analytics wires the analytics read model: the projection consumer that feeds it and
// the summary that reads only from it.
func Analytics() fx.Option {
	return fx.Module("analytics",
		fx.Provide(
			sqlstore.NewAnalyticsProjection,
			newAnalyticsSummary,
			func(rm *sqlstore.AnalyticsSummary, p *sqlstore.AnalyticsProjection, c platform.Clock, tx platform.Transactor, obs platform.Observer) analytics.Application {
				return analytics.New(rm, p, c, tx, obs)
			},
			eventConsumer(consumers.AnalyticsProjection),
			apiEndpoints(v1.AnalyticsEndpoints),
		),
	)
}

// newAnalyticsSummary tells the summary whether its consumer group is at the outbox head.
func newAnalyticsSummary(db *sqldb.DB, pos *watermill.Positions) *sqlstore.AnalyticsSummary {
	return sqlstore.NewAnalyticsSummary(db, func(ctx context.Context, workspaceID string) (bool, error) {
		return pos.WorkspaceCaughtUp(ctx, consumers.AnalyticsProjectionName, workspaceID)
	})
}
