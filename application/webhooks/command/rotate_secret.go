package command

import (
	"context"
	"crypto/rand"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// RotateSecret gives an endpoint a new signing secret.
type RotateSecret struct {
	WorkspaceID string
	WebhookID   string
}

// RotateSecret returns the new secret once; requests carry both signatures for 24 hours.
func (d Deps) RotateSecret(ctx context.Context, cmd RotateSecret) (WebhookWithSecret, error) {
	next, err := webhooks.GenerateSecret(rand.Reader)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	s, err := d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	s.Rotate(next, d.Clock.Now())
	if err := d.Subs.Save(ctx, s); err != nil {
		return WebhookWithSecret{}, err
	}
	return WebhookWithSecret{Webhook: query.View(s), SigningSecret: next.String()},
		d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "webhook.secret_rotated",
			Target: cmd.WebhookID, Detail: "the old secret keeps signing for 24 hours"})
}
