package command

import (
	"context"
	"strings"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// SetReceiver replaces an endpoint's static headers and OAuth2 grant. A value sent back
// as webhooks.Mask keeps the stored one (a form shows them masked).
type SetReceiver struct {
	WorkspaceID string
	WebhookID   string
	Receiver    webhooks.Receiver
}

// SetReceiver validates and seals the new receiver; attempts use it within a second on
// every instance (adapters/webhooks.ReceiverAuth caches it that long).
func (d Deps) SetReceiver(ctx context.Context, cmd SetReceiver) (query.Webhook, error) {
	s, err := d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return query.Webhook{}, err
	}
	next := cmd.Receiver
	if !s.ReceiverUnreadable {
		next = webhooks.KeepMasked(next, s.Receiver)
	}
	if s.Receiver, err = webhooks.ValidateReceiver(next, d.Settings.AllowHTTP); err != nil {
		return query.Webhook{}, err
	}
	s.ReceiverUnreadable, s.UpdatedAt = false, d.Clock.Now()
	if err := d.Subs.Save(ctx, s); err != nil {
		return query.Webhook{}, err
	}
	names := make([]string, 0, len(s.Receiver.Headers)+1)
	for _, h := range s.Receiver.Headers {
		names = append(names, h.Name) // names only: values are secrets
	}
	if s.Receiver.Auth != nil {
		names = append(names, "OAuth2 client credentials")
	}
	return query.View(s), d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "webhook.receiver_changed",
		Target: cmd.WebhookID, Detail: "sends " + strings.Join(append(names, "the signature"), ", ")})
}
