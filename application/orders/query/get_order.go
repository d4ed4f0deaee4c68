package query

import "context"

// GetOrder fetches one order of a workspace.
type GetOrder struct {
	WorkspaceID string
	OrderID     string
}

// GetOrderHandler handles GetOrder.
type GetOrderHandler struct {
	rm ReadModel
}

// NewGetOrderHandler builds the handler.
func NewGetOrderHandler(rm ReadModel) GetOrderHandler { return GetOrderHandler{rm: rm} }

// Handle returns NotFound for another workspace's order.
func (h GetOrderHandler) Handle(ctx context.Context, q GetOrder) (Order, error) {
	o, err := h.rm.Get(ctx, q.WorkspaceID, q.OrderID)
	if err != nil {
		return Order{}, err
	}
	return FromDomain(o), nil
}
