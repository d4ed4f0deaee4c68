package v1

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// OrderFetchEndpoints serves GET /orders/{id}: one order, for a sync that follows an
// order.paid event's id or a student's order.
func OrderFetchEndpoints(app orders.Application) []Endpoint {
	return []Endpoint{{Method: fiber.MethodGet, Path: "/orders/:id", Scope: keys.ReadOrders, Handler: func(c *fiber.Ctx) error {
		if err := OnlyParams(c); err != nil {
			return err
		}
		o, err := app.Queries.GetOrder.Handle(c.UserContext(), query.GetOrder{WorkspaceID: PrincipalOf(c).WorkspaceID, OrderID: c.Params("id")})
		if err != nil {
			return err
		}
		return c.JSON(o)
	}}}
}
