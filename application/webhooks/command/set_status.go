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

// SetWebhookStatusHandler handles SetWebhookStatus.
type SetWebhookStatusHandler struct{ d Deps }

// NewSetWebhookStatusHandler builds the handler.
func NewSetWebhookStatusHandler(d Deps) SetWebhookStatusHandler { return SetWebhookStatusHandler{d: d} }

// Handle is idempotent. Enabling resumes pending deliveries and restarts the failing
// streak; deliveries that failed meanwhile are recovered separately (RecoverDeliveries).
func (h SetWebhookStatusHandler) Handle(ctx context.Context, cmd SetWebhookStatus) (query.Webhook, error) {
	s, err := h.d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return query.Webhook{}, err
	}
	now, action := h.d.Clock.Now(), "webhook.disabled"
	if cmd.Enabled {
		s.Enable(now)
		action = "webhook.enabled"
	} else {
		s.Disable(webhooks.ByOperator, now)
	}
	if err := h.d.Subs.Save(ctx, s); err != nil {
		return query.Webhook{}, err
	}
	if cmd.Enabled {
		h.d.Waker.Wake(ctx) // after the commit (Waker)
	}
	return query.View(s), h.d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: action,
		Target: cmd.WebhookID, Detail: s.URL})
}
