package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// DeliveryPages reads an endpoint's deliveries, newest first.
type DeliveryPages interface {
	Page(ctx context.Context, workspaceID, subscriptionID, status string, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error)
	Attempts(ctx context.Context, workspaceID string, deliveryIDs []string) (map[string][]webhooks.Attempt, error)
}

// ListDeliveries asks for one page of an endpoint's deliveries; Status "" means any.
type ListDeliveries struct {
	WorkspaceID string
	WebhookID   string
	Status      string
	Page        platform.PageRequest
}

// ListDeliveries returns the page with each delivery's attempt log (kept 30 days).
func (r Reads) ListDeliveries(ctx context.Context, q ListDeliveries) (platform.Page[Delivery], error) {
	switch webhooks.DeliveryStatus(q.Status) {
	case "", webhooks.Pending, webhooks.DeliverySucceeded, webhooks.DeliveryFailed:
	default:
		return platform.Page[Delivery]{}, kernel.Invalid("status", "status must be pending, succeeded or failed")
	}
	if _, err := r.Subs.Get(ctx, q.WorkspaceID, q.WebhookID); err != nil {
		return platform.Page[Delivery]{}, err
	}
	page, err := r.Pages.Page(ctx, q.WorkspaceID, q.WebhookID, q.Status, q.Page)
	if err != nil {
		return platform.Page[Delivery]{}, err
	}
	ids := make([]string, len(page.Items))
	for i, d := range page.Items {
		ids[i] = d.ID
	}
	logs, err := r.Pages.Attempts(ctx, q.WorkspaceID, ids)
	if err != nil {
		return platform.Page[Delivery]{}, err
	}
	out := platform.Page[Delivery]{HasMore: page.HasMore, Next: page.Next, Items: make([]Delivery, 0, len(page.Items))}
	for _, d := range page.Items {
		out.Items = append(out.Items, DeliveryView(d, logs[d.ID]))
	}
	return out, nil
}
