package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// SetWebhookStatus enables or disables an endpoint by hand.
type SetWebhookStatus struct {
	WorkspaceID string
	WebhookID   string
	Enabled     bool
}

// SetWebhookStatus is idempotent. Enabling resumes pending deliveries and restarts the failing
// streak; deliveries that failed meanwhile are recovered separately (RecoverDeliveries).
func (d Deps) SetWebhookStatus(ctx context.Context, cmd SetWebhookStatus) (query.Webhook, error) {
	s, err := d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return query.Webhook{}, err
	}
	now, action := d.Clock.Now(), "webhook.disabled"
	if cmd.Enabled {
		s.Enable(now)
		action = "webhook.enabled"
	} else {
		s.Disable(webhooks.ByOperator, now)
	}
	if err := d.Subs.Save(ctx, s); err != nil {
		return query.Webhook{}, err
	}
	if cmd.Enabled {
		d.Waker.Wake(ctx) // after the commit (Waker)
	}
	return query.View(s), d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: action,
		Target: cmd.WebhookID, Detail: s.URL})
}
