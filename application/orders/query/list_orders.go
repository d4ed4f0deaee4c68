package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/orders"
)

// ListOrders asks for a page of a workspace's orders, newest first.
type ListOrders struct {
	WorkspaceID string
	Filters     Filters
	Page        platform.PageRequest
}

// ListOrders validates the filters and returns one page.
func (r Reads) ListOrders(ctx context.Context, q ListOrders) (platform.Page[Order], error) {
	if err := q.Filters.check(); err != nil {
		return platform.Page[Order]{}, err
	}
	return platform.ListPage(ctx, r.ReadModel.List, q.WorkspaceID, q.Filters, q.Page, func(list []*orders.Order) ([]Order, error) {
		out := make([]Order, len(list))
		for i, o := range list {
			out[i] = FromDomain(o)
		}
		return out, nil
	})
}

// check refuses an unknown status and an empty time window.
func (f Filters) check() error {
	if f.Status != "" {
		if _, err := orders.ParseStatus("status", f.Status); err != nil {
			return err
		}
	}
	if f.CreatedSince != nil && f.CreatedBefore != nil && !f.CreatedSince.Before(*f.CreatedBefore) {
		return kernel.Invalid("createdBefore", "createdBefore must be later than createdSince")
	}
	return nil
}
