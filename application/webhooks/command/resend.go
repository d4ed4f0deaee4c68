package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// ResendDelivery sends one delivery again, with the same id and bytes.
type ResendDelivery struct {
	WorkspaceID string
	DeliveryID  string
}

// ResendDeliveryHandler handles ResendDelivery.
type ResendDeliveryHandler struct{ d Deps }

// NewResendDeliveryHandler builds the handler.
func NewResendDeliveryHandler(d Deps) ResendDeliveryHandler { return ResendDeliveryHandler{d: d} }

// Handle makes the delivery due now with a fresh retry schedule.
func (h ResendDeliveryHandler) Handle(ctx context.Context, cmd ResendDelivery) (query.Delivery, error) {
	d, err := h.d.Deliveries.Get(ctx, cmd.WorkspaceID, cmd.DeliveryID)
	if err != nil {
		return query.Delivery{}, err
	}
	s, err := h.d.Subs.Get(ctx, cmd.WorkspaceID, d.SubscriptionID)
	if err != nil {
		return query.Delivery{}, err
	}
	if s.Status != webhooks.Enabled {
		return query.Delivery{}, webhooks.ErrNotResendable(d.ID)
	}
	d.Resend(h.d.Clock.Now())
	if err := h.d.Deliveries.Save(ctx, d); err != nil {
		return query.Delivery{}, err
	}
	logs, err := h.d.Deliveries.Attempts(ctx, cmd.WorkspaceID, []string{d.ID})
	if err != nil {
		return query.Delivery{}, err
	}
	h.d.Waker.Wake(ctx) // after the commit (Waker)
	return query.DeliveryView(d, logs[d.ID]), h.d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID,
		Action: "webhook.delivery_resent", Target: d.ID, Detail: d.EventType + " " + d.EventID + " to " + d.SubscriptionID})
}

// RecoverDeliveries resends every failed delivery of an endpoint created in [Since, Until).
type RecoverDeliveries struct {
	WorkspaceID string
	WebhookID   string
	Since       time.Time
	Until       *time.Time // nil: now
}

// Recovered counts the deliveries made due again.
type Recovered struct {
	Recovered int `json:"recovered"`
}

// RecoverDeliveriesHandler handles RecoverDeliveries.
type RecoverDeliveriesHandler struct{ d Deps }

// NewRecoverDeliveriesHandler builds the handler.
func NewRecoverDeliveriesHandler(d Deps) RecoverDeliveriesHandler {
	return RecoverDeliveriesHandler{d: d}
}

// Handle refuses a disabled endpoint: enable it first, then recover.
func (h RecoverDeliveriesHandler) Handle(ctx context.Context, cmd RecoverDeliveries) (Recovered, error) {
	now := h.d.Clock.Now()
	until := now.Add(time.Microsecond)
	if cmd.Until != nil {
		until = *cmd.Until
	}
	if !cmd.Since.Before(until) {
		return Recovered{}, kernel.Invalid("since", "since must be before until")
	}
	s, err := h.d.Subs.Get(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return Recovered{}, err
	}
	if s.Status != webhooks.Enabled {
		return Recovered{}, kernel.Invalid("id", "webhook %s is disabled: enable it first", s.ID)
	}
	n, err := h.d.Deliveries.ResendFailed(ctx, cmd.WorkspaceID, cmd.WebhookID, cmd.Since, until, now)
	if err != nil {
		return Recovered{}, err
	}
	if n > 0 {
		h.d.Waker.Wake(ctx) // after the commit (Waker)
	}
	return Recovered{Recovered: n}, h.d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID,
		Action: "webhook.deliveries_recovered", Target: cmd.WebhookID,
		Detail: fmt.Sprintf("%d failed deliveries created since %s", n, cmd.Since.UTC().Format(time.RFC3339))})
}
