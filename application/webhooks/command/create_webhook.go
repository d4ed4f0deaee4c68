package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// CreateWebhook subscribes url to the chosen public event types.
type CreateWebhook struct {
	WorkspaceID string
	URL         string
	Events      []string
	Pacing      PacingChange
	// Receiver: static headers and an OAuth2 grant sent on every attempt (none when empty).
	Receiver webhooks.Receiver
	// BackfillSince, when set, also sends the endpoint its types' events since then.
	BackfillSince *time.Time
}

// WebhookWithSecret is an endpoint with its signing secret, shown this once.
type WebhookWithSecret struct {
	query.Webhook
	SigningSecret string `json:"signingSecret"`
}

// CreateWebhook draws a 256-bit secret, stores it sealed and returns it once.
func (d Deps) CreateWebhook(ctx context.Context, cmd CreateWebhook) (WebhookWithSecret, error) {
	types, err := webhooks.ParseEventTypes(cmd.Events, PublicTypeNames())
	if err != nil {
		return WebhookWithSecret{}, err
	}
	secret, err := webhooks.GenerateSecret(rand.Reader)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	s, err := webhooks.NewSubscription(d.IDs.New(webhooks.IDPrefix), cmd.WorkspaceID, cmd.URL, types, secret,
		d.Settings.AllowHTTP, d.Clock.Now())
	if err != nil {
		return WebhookWithSecret{}, err
	}
	s.PayloadVersion = d.currentPayloadVersion(s.CreatedAt)
	if s.Receiver, err = webhooks.ValidateReceiver(cmd.Receiver, d.Settings.AllowHTTP); err != nil {
		return WebhookWithSecret{}, err
	}
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return WebhookWithSecret{}, err
	}
	existing, err := d.Subs.List(ctx, cmd.WorkspaceID)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	if err := webhooks.RoomForAnother(existing); err != nil {
		return WebhookWithSecret{}, err
	}
	if err := d.Subs.Add(ctx, s); err != nil {
		return WebhookWithSecret{}, err
	}
	if err := d.applyPacing(ctx, s, cmd.Pacing); err != nil {
		return WebhookWithSecret{}, err
	}
	if cmd.BackfillSince != nil {
		if _, err := d.startBackfill(ctx, s, *cmd.BackfillSince); err != nil {
			return WebhookWithSecret{}, err
		}
	}
	return WebhookWithSecret{Webhook: query.View(s), SigningSecret: secret.String()},
		d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: s.WorkspaceID, Action: "webhook.created", Target: s.ID,
			Detail: fmt.Sprintf("%s for %d event types", cmd.URL, len(types))})
}

// PublicTypeNames lists the types receivers may subscribe to: the 13 public types and the
// operational ones (events.WebhookTypes).
func PublicTypeNames() []string {
	types := events.WebhookTypes()
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = string(t)
	}
	return out
}
