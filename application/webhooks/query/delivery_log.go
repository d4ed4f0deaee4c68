package query

import (
	"context"
	"fmt"
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

// DeliveryLogHandler reads an endpoint's log and single deliveries.
type DeliveryLogHandler struct {
	subs       webhooks.Repository
	log        DeliveryLog
	deliveries webhooks.Deliveries
}

// NewDeliveryLogHandler builds the handler.
func NewDeliveryLogHandler(subs webhooks.Repository, log DeliveryLog, deliveries webhooks.Deliveries) DeliveryLogHandler {
	return DeliveryLogHandler{subs: subs, log: log, deliveries: deliveries}
}

// Page returns one page of the endpoint's log (without attempt lines: a delivery's own
// page shows them).
func (h DeliveryLogHandler) Page(ctx context.Context, f LogFilter, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
	switch f.Status {
	case "", LogSucceeded, LogFailing, LogFailed, LogPending:
	default:
		return platform.Page[*webhooks.Delivery]{}, kernel.Invalid("status", "status must be succeeded, failing, failed or pending")
	}
	f.Search = strings.TrimSpace(f.Search)
	if _, err := h.subs.Get(ctx, f.WorkspaceID, f.WebhookID); err != nil {
		return platform.Page[*webhooks.Delivery]{}, err
	}
	page, err := h.log.Search(ctx, f, req)
	if err != nil {
		return page, fmt.Errorf("delivery log: %w", err)
	}
	return page, nil
}

// Stats counts the workspace's deliveries per endpoint since since.
func (h DeliveryLogHandler) Stats(ctx context.Context, workspaceID string, since time.Time) (map[string]EndpointStats, error) {
	out, err := h.log.Stats(ctx, workspaceID, since)
	if err != nil {
		return nil, fmt.Errorf("delivery stats: %w", err)
	}
	return out, nil
}

// DeliveryDetail is one delivery with the exact payload and its attempts.
type DeliveryDetail struct {
	Delivery *webhooks.Delivery
	Attempts []webhooks.Attempt
}

// Get returns the endpoint's delivery with its attempt log, or NotFound (also when it
// belongs to another endpoint or workspace).
func (h DeliveryLogHandler) Get(ctx context.Context, workspaceID, webhookID, deliveryID string) (DeliveryDetail, error) {
	d, err := h.deliveries.Get(ctx, workspaceID, deliveryID)
	if err != nil {
		return DeliveryDetail{}, err
	}
	if d.SubscriptionID != webhookID {
		return DeliveryDetail{}, kernel.NotFound("delivery %s not found", deliveryID)
	}
	logs, err := h.deliveries.Attempts(ctx, workspaceID, []string{d.ID})
	if err != nil {
		return DeliveryDetail{}, fmt.Errorf("delivery detail: %w", err)
	}
	return DeliveryDetail{Delivery: d, Attempts: logs[d.ID]}, nil
}
