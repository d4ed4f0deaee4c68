package compose

import (
	"github.com/creatorapi/creatorapi/adapters/modulelinks"
	"go.uber.org/fx"

	sqlorders "github.com/creatorapi/creatorapi/adapters/sql/orders"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	domainorders "github.com/creatorapi/creatorapi/domain/orders"
	"github.com/creatorapi/creatorapi/ports/consumers"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Orders wires paid orders and refunds. Its adapters are provided as the module's ports
// (fx.As), so a test swaps any of them with one fx.Replace (tests/testenv: MemoryOrders).
// Students, courses and entitlements come from those modules' published surfaces
// (adapters/modulelinks: the enrollments commands join the order's transaction and emit
// their own events). The analytics rebuild guard asks the Application's FirstActivity.
func Orders() fx.Option {
	return fx.Module("orders",
		fx.Provide(
			fx.Annotate(sqlorders.NewRepository, fx.As(new(domainorders.Repository))),
			fx.Annotate(sqlorders.NewReads, fx.As(new(query.ReadModel)), fx.As(new(query.Published))),
			func(kit platform.Kit, repo domainorders.Repository, rm query.ReadModel, published query.Published,
				ws platform.WorkspaceDirectory, st modulelinks.StudentDirectory, crs courses.Application, enr enrollments.Application) orders.Application {
				return orders.New(command.Deps{
					Kit: kit, Repo: repo, ReadModel: rm, Workspaces: ws, Students: st, Courses: modulelinks.OrderCatalog{App: crs},
					Entitlements: modulelinks.OrderEntitlements{App: enr},
				}, published)
			},
			apiEndpoints(v1.OrderEndpoints),
			apiEndpoints(v1.OrderFetchEndpoints),
			eventConsumer(consumers.OrderEntitlements),
			operatorRoutes(operator.OrderRoutes),
		),
	)
}
