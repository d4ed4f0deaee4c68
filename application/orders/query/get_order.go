package query

import "context"

// GetOrder fetches one order of a workspace.
type GetOrder struct {
	WorkspaceID string
	OrderID     string
}

// GetOrder returns NotFound for another workspace's order.
func (r Reads) GetOrder(ctx context.Context, q GetOrder) (Order, error) {
	o, err := r.ReadModel.Get(ctx, q.WorkspaceID, q.OrderID)
	if err != nil {
		return Order{}, err
	}
	return FromDomain(o), nil
}
