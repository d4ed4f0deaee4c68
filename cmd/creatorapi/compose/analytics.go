package compose

import (
	"context"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	sqlanalytics "github.com/creatorapi/creatorapi/adapters/sql/analytics"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/ports/consumers"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
)

// Analytics wires the analytics read model: the projection consumer that feeds it and
// the summary that reads only from it. Its stores are provided as the module's ports
// (fx.As), so a test swaps them with one fx.Replace (tests/testenv: MemoryAnalytics).
func Analytics() fx.Option {
	return fx.Module("analytics",
		fx.Provide(
			fx.Annotate(sqlanalytics.NewProjection, fx.As(new(command.Projection)), fx.As(new(command.Resetter))),
			fx.Annotate(sqlanalytics.NewSummary, fx.As(new(query.ReadModel)), fx.As(new(query.DailyReadModel))),
			fx.Annotate(newAnalyticsBacklog, fx.As(new(query.Backlog))),
			analytics.New,
			eventConsumer(consumers.AnalyticsProjection),
			apiEndpoints(v1.AnalyticsEndpoints),
		),
	)
}

// analyticsBacklog tells the summary whether the projection's consumer group has
// consumed every event of the workspace's partition.
type analyticsBacklog struct{ pos *router.Positions }

func newAnalyticsBacklog(pos *router.Positions) analyticsBacklog { return analyticsBacklog{pos} }

func (b analyticsBacklog) CaughtUp(ctx context.Context, workspaceID string) (bool, error) {
	return b.pos.WorkspaceCaughtUp(ctx, consumers.AnalyticsProjectionName, workspaceID)
}
