package query

import (
	"context"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Log statuses as the dashboard filters them: failing is a pending delivery whose last
// attempt failed (a retry is scheduled).
const (
	LogSucceeded = "succeeded"
	LogFailing   = "failing"
	LogFailed    = "failed"
	LogPending   = "pending"
)

// LogFilter narrows an endpoint's delivery log. Search matches an event id or a delivery
// id exactly.
type LogFilter struct {
	WorkspaceID string
	WebhookID   string
	Status      string // "", succeeded, failing, failed, pending
	EventType   string // "": any
	Search      string
}

// EndpointStats counts an endpoint's deliveries created since a time.
type EndpointStats struct {
	Deliveries int
	Succeeded  int
	Failed     int // failed for good
}

// SuccessRate is the share of finished deliveries that succeeded, in percent (-1: none).
func (s EndpointStats) SuccessRate() int {
	done := s.Succeeded + s.Failed
	if done == 0 {
		return -1
	}
	return s.Succeeded * 100 / done
}

// DeliveryLog reads the delivery log the dashboard shows.
type DeliveryLog interface {
	// Search lists deliveries newest first, keyset-paginated by (created_at, id).
	Search(ctx context.Context, f LogFilter, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error)
	// Stats counts each endpoint's deliveries of the workspace created since since.
	Stats(ctx context.Context, workspaceID string, since time.Time) (map[string]EndpointStats, error)
}

// DeliveryLogPage asks for one page of an endpoint's delivery log.
type DeliveryLogPage struct {
	Filter LogFilter
	Page   platform.PageRequest
}

// DeliveryLogPage returns one page of the endpoint's log (without attempt lines: a delivery's own
// page shows them).
func (r Reads) DeliveryLogPage(ctx context.Context, q DeliveryLogPage) (platform.Page[*webhooks.Delivery], error) {
	f := q.Filter
	switch f.Status {
	case "", LogSucceeded, LogFailing, LogFailed, LogPending:
	default:
		return platform.Page[*webhooks.Delivery]{}, kernel.Invalid("status", "status must be succeeded, failing, failed or pending")
	}
	f.Search = strings.TrimSpace(f.Search)
	if _, err := r.Subs.Get(ctx, f.WorkspaceID, f.WebhookID); err != nil {
		return platform.Page[*webhooks.Delivery]{}, err
	}
	return r.Log.Search(ctx, f, q.Page)
}

// DeliveryStats asks for the workspace's deliveries per endpoint created since Since.
type DeliveryStats struct {
	WorkspaceID string
	Since       time.Time
}

// DeliveryStats counts the workspace's deliveries per endpoint.
func (r Reads) DeliveryStats(ctx context.Context, q DeliveryStats) (map[string]EndpointStats, error) {
	return r.Log.Stats(ctx, q.WorkspaceID, q.Since)
}

// DeliveryDetail is one delivery with the exact payload and its attempts.
type DeliveryDetail struct {
	Delivery *webhooks.Delivery
	Attempts []webhooks.Attempt
}

// GetDelivery asks for one delivery of an endpoint.
type GetDelivery struct {
	WorkspaceID string
	WebhookID   string
	DeliveryID  string
}

// GetDelivery returns the endpoint's delivery with its attempt log, or NotFound (also when it
// belongs to another endpoint or workspace).
func (r Reads) GetDelivery(ctx context.Context, q GetDelivery) (DeliveryDetail, error) {
	d, err := r.Deliveries.Get(ctx, q.WorkspaceID, q.DeliveryID)
	if err != nil {
		return DeliveryDetail{}, err
	}
	if d.SubscriptionID != q.WebhookID {
		return DeliveryDetail{}, kernel.NotFound("delivery %s not found", q.DeliveryID)
	}
	logs, err := r.Deliveries.Attempts(ctx, q.WorkspaceID, []string{d.ID})
	if err != nil {
		return DeliveryDetail{}, err
	}
	return DeliveryDetail{Delivery: d, Attempts: logs[d.ID]}, nil
}
