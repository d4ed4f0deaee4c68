package compose

import (
	"context"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
	sqlanalytics "github.com/creatorapi/creatorapi/adapters/sql/analytics"
	"github.com/creatorapi/creatorapi/application/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
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
			newAnalyticsApp,
			eventConsumer(consumers.AnalyticsProjection),
			apiEndpoints(v1.AnalyticsEndpoints),
		),
	)
}

type analyticsParams struct {
	fx.In
	Kit        platform.Kit
	Projection command.Projection
	ReadModel  query.ReadModel
	Daily      query.DailyReadModel
	Backlog    query.Backlog
	Positions  *router.Positions
	Orders     orders.Application
	Enrolls    enrollments.Application
	Students   students.Directory
}

// newAnalyticsApp: the rebuild guard asks the outbox and the owners of the facts the
// read model counts (sales and refunds, enrollments and completions, new students).
func newAnalyticsApp(p analyticsParams) analytics.Application {
	return analytics.New(analytics.Deps{
		Deps: command.Deps{Kit: p.Kit, Projection: p.Projection},
		Reads: query.Reads{ReadModel: p.ReadModel, Daily: p.Daily, Backlog: p.Backlog, Clock: p.Kit.Clock,
			Guard: query.RebuildGuard{Outbox: p.Positions, Sources: []platform.Handler[struct{}, platform.Earliest]{
				p.Orders.Queries.FirstActivity, p.Enrolls.Queries.FirstActivity, p.Students.FirstCreated}}},
	})
}

// analyticsBacklog tells the summary whether the projection's consumer group has
// consumed every event of the workspace's partition.
type analyticsBacklog struct{ pos *router.Positions }

func newAnalyticsBacklog(pos *router.Positions) analyticsBacklog { return analyticsBacklog{pos} }

func (b analyticsBacklog) CaughtUp(ctx context.Context, workspaceID string) (bool, error) {
	return b.pos.WorkspaceCaughtUp(ctx, consumers.AnalyticsProjectionName, workspaceID)
}
