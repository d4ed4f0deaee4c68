package compose

import (
	"context"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/platform"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/ports/consumers"
	v1 "github.com/creatorapi/creatorapi/ports/http/api/v1"
	"github.com/creatorapi/creatorapi/ports/http/operator"
)

// Orders wires paid orders and refunds. Entitlements go through the enrollments
// application (its commands join the order's transaction and emit their own events).
func Orders() fx.Option {
	return fx.Module("orders",
		fx.Provide(
			sqlstore.NewOrders,
			sqlstore.NewOrderReads,
			func(kit platform.Kit, repo *sqlstore.Orders, rm *sqlstore.OrderReads, ws *sqlstore.Workspaces,
				st studentDirectory, crs courses.Application, enr enrollments.Application) orders.Application {
				return orders.New(command.Deps{
					Kit: kit, Repo: repo, ReadModel: rm, Workspaces: ws, Students: st, Courses: orderCatalog{app: crs},
					Entitlements: orderEntitlements{app: enr},
				})
			},
			apiEndpoints(v1.OrderEndpoints),
			eventConsumer(consumers.OrderEntitlements),
			operatorRoutes(operator.OrderRoutes),
		),
	)
}

// orderEntitlements adapts the enrollments application to the orders module's port.
type orderEntitlements struct{ app enrollments.Application }

// Grant enrolls the student with source "order" (or reactivates a revoked enrollment).
func (e orderEntitlements) Grant(ctx context.Context, workspaceID, studentID, courseID string) (string, error) {
	en, err := e.app.Commands.GrantEnrollment.Handle(ctx, enrollmentcmd.GrantEnrollment{
		WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID, Source: string(domainenrollments.SourceOrder),
	})
	return en.Value.ID, err
}

// Revoke revokes the enrollment; an already revoked one stays as it is.
func (e orderEntitlements) Revoke(ctx context.Context, workspaceID, enrollmentID string) error {
	_, err := e.app.Commands.RevokeEnrollment.Handle(ctx, enrollmentcmd.RevokeEnrollment{WorkspaceID: workspaceID, EnrollmentID: enrollmentID})
	return err
}
