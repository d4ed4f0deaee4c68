package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Search lists an endpoint's deliveries newest first, with the dashboard's filters.
func (r Log) Search(_ context.Context, f query.LogFilter, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
	return r.page(req, func(d *webhooks.Delivery) bool {
		return d.WorkspaceID == f.WorkspaceID && d.SubscriptionID == f.WebhookID && logStatus(d, f.Status) &&
			(f.EventType == "" || d.EventType == f.EventType) && (f.Search == "" || d.ID == f.Search || d.EventID == f.Search)
	}), nil
}

// logStatus tells whether d shows under the log's status filter ("" and unknown: any).
func logStatus(d *webhooks.Delivery, status string) bool {
	switch status {
	case query.LogSucceeded, query.LogFailed:
		return string(d.Status) == status
	case query.LogFailing:
		return d.Status == webhooks.Pending && d.Attempts > 0
	case query.LogPending:
		return d.Status == webhooks.Pending && d.Attempts == 0
	}
	return true
}

// Stats counts each of the workspace's endpoints' deliveries created since since (every
// endpoint is in the answer, with zeros when it has none).
func (r Log) Stats(_ context.Context, workspaceID string, since time.Time) (map[string]query.EndpointStats, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]query.EndpointStats{}
	for id, s := range r.subs {
		if s.WorkspaceID == workspaceID {
			out[id] = query.EndpointStats{}
		}
	}
	for _, d := range r.deliveries {
		x := d.d
		s, ok := out[x.SubscriptionID]
		if !ok || x.WorkspaceID != workspaceID || x.CreatedAt.Before(since) {
			continue
		}
		s.Deliveries++
		switch x.Status {
		case webhooks.DeliverySucceeded:
			s.Succeeded++
		case webhooks.DeliveryFailed:
			s.Failed++
		}
		out[x.SubscriptionID] = s
	}
	return out, nil
}
