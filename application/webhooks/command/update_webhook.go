package command

import (
	"context"
	"strings"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// UpdateWebhook points an endpoint at another URL and event types.
type UpdateWebhook struct {
	WorkspaceID string
	WebhookID   string
	URL         string
	Events      []string
	Pacing      PacingChange
}

// UpdateWebhook applies the creation rules (https, SSRF at connect time, known types). Deliveries
// already queued keep going to the endpoint at its new URL.
func (d Deps) UpdateWebhook(ctx context.Context, cmd UpdateWebhook) (query.Webhook, error) {
	types, err := webhooks.ParseEventTypes(cmd.Events, PublicTypeNames())
	if err != nil {
		return query.Webhook{}, err
	}
	s, err := d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return query.Webhook{}, err
	}
	if err := s.Change(cmd.URL, types, d.Settings.AllowHTTP, d.Clock.Now()); err != nil {
		return query.Webhook{}, err
	}
	if err := d.Subs.Save(ctx, s); err != nil {
		return query.Webhook{}, err
	}
	if err := d.applyPacing(ctx, s, cmd.Pacing); err != nil {
		return query.Webhook{}, err
	}
	return query.View(s), d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "webhook.updated",
		Target: cmd.WebhookID, Detail: s.URL + " for " + strings.Join(types, ", ")})
}
