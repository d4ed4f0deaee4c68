package operator

import (
	"github.com/gofiber/fiber/v2"

	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/ports/http/web"
)

type placeOrderRequest struct {
	StudentID string             `json:"studentId" validate:"required,max=64"`
	Currency  string             `json:"currency" validate:"required"`
	Items     []orderItemRequest `json:"items" validate:"required,min=1,max=50,dive"`
}

type orderItemRequest struct {
	CourseID string `json:"courseId" validate:"required,max=64"`
	// A pointer so that a missing amount is "required", not a free course.
	Amount *int64 `json:"amount" validate:"required,gte=0,lte=1000000000000"`
}

type refundRequest struct {
	Amount *int64 `json:"amount" validate:"omitempty,gte=1"`
}

// OrderRoutes: POST W/orders (paid), GET W/orders/{id}, POST W/orders/{id}/refunds.
func OrderRoutes(app orders.Application, dec *web.Decoder) Routes {
	h := orderRoutes{app: app, dec: dec}
	return Routes{
		{Method: fiber.MethodPost, Path: "/workspaces/:org/orders", Handlers: []fiber.Handler{h.place}},
		{Method: fiber.MethodGet, Path: "/workspaces/:org/orders/:id", Handlers: []fiber.Handler{h.get}},
		{Method: fiber.MethodPost, Path: "/workspaces/:org/orders/:id/refunds", Handlers: []fiber.Handler{h.refund}},
	}
}

type orderRoutes struct {
	app orders.Application
	dec *web.Decoder
}

func (h orderRoutes) place(c *fiber.Ctx) error {
	var req placeOrderRequest
	if err := h.dec.Body(c, &req); err != nil {
		return err
	}
	cmd := command.PlaceOrder{WorkspaceID: c.Params("org"), StudentID: req.StudentID, Currency: req.Currency}
	for _, it := range req.Items {
		cmd.Items = append(cmd.Items, command.OrderItem{CourseID: it.CourseID, Amount: *it.Amount})
	}
	o, err := h.app.Commands.PlaceOrder.Handle(c.UserContext(), cmd)
	if err != nil {
		return err
	}
	return created(c, o)
}

func (h orderRoutes) get(c *fiber.Ctx) error {
	o, err := h.app.Queries.GetOrder.Handle(c.UserContext(), query.GetOrder{WorkspaceID: c.Params("org"), OrderID: c.Params("id")})
	if err != nil {
		return err
	}
	return c.JSON(o)
}

// refund takes an optional body: none (or {}) refunds what is left. It answers 200
// with the order (the refund is an entry of its history, not a resource of its own).
func (h orderRoutes) refund(c *fiber.Ctx) error {
	var req refundRequest
	if err := h.dec.OptionalBody(c, &req); err != nil {
		return err
	}
	o, err := h.app.Commands.RefundOrder.Handle(c.UserContext(), command.RefundOrder{
		WorkspaceID: c.Params("org"), OrderID: c.Params("id"), Amount: req.Amount,
	})
	if err != nil {
		return err
	}
	return c.JSON(o)
}
