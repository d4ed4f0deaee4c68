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

// ResendDelivery makes the delivery due now with a fresh retry schedule.
func (d Deps) ResendDelivery(ctx context.Context, cmd ResendDelivery) (query.Delivery, error) {
	dl, err := d.Deliveries.Get(ctx, cmd.WorkspaceID, cmd.DeliveryID)
	if err != nil {
		return query.Delivery{}, err
	}
	s, err := d.Subs.Get(ctx, cmd.WorkspaceID, dl.SubscriptionID)
	if err != nil {
		return query.Delivery{}, err
	}
	if s.Status != webhooks.Enabled {
		return query.Delivery{}, webhooks.ErrNotResendable(dl.ID)
	}
	dl.Resend(d.Clock.Now())
	if err := d.Deliveries.Save(ctx, dl); err != nil {
		return query.Delivery{}, err
	}
	logs, err := d.Deliveries.Attempts(ctx, cmd.WorkspaceID, []string{dl.ID})
	if err != nil {
		return query.Delivery{}, err
	}
	d.Waker.Wake(ctx) // after the commit (Waker)
	return query.DeliveryView(dl, logs[dl.ID]), d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID,
		Action: "webhook.delivery_resent", Target: dl.ID, Detail: dl.EventType + " " + dl.EventID + " to " + dl.SubscriptionID})
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

// RecoverDeliveries refuses a disabled endpoint: enable it first, then recover.
func (d Deps) RecoverDeliveries(ctx context.Context, cmd RecoverDeliveries) (Recovered, error) {
	now := d.Clock.Now()
	until := now.Add(time.Microsecond)
	if cmd.Until != nil {
		until = *cmd.Until
	}
	if !cmd.Since.Before(until) {
		return Recovered{}, kernel.Invalid("since", "since must be before until")
	}
	s, err := d.Subs.Get(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return Recovered{}, err
	}
	if s.Status != webhooks.Enabled {
		return Recovered{}, kernel.Invalid("id", "webhook %s is disabled: enable it first", s.ID)
	}
	n, err := d.Deliveries.ResendFailed(ctx, cmd.WorkspaceID, cmd.WebhookID, cmd.Since, until, now)
	if err != nil {
		return Recovered{}, err
	}
	if n > 0 {
		d.Waker.Wake(ctx) // after the commit (Waker)
	}
	return Recovered{Recovered: n}, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID,
		Action: "webhook.deliveries_recovered", Target: cmd.WebhookID,
		Detail: fmt.Sprintf("%d failed deliveries created since %s", n, cmd.Since.UTC().Format(time.RFC3339))})
}
