package webhooks

import (
	"context"
	"fmt"
	"time"
)

// NoticeIDPrefix prefixes notice ids.
const NoticeIDPrefix = "ntc"

// Notice is an e-mail to a workspace owner, stored in the transaction that decided it
// and sent at least once afterwards.
type Notice struct {
	ID             string
	WorkspaceID    string
	SubscriptionID string
	To             string
	Subject        string
	Body           string
	CreatedAt      time.Time
}

// DisabledNotice tells the owner that the endpoint was disabled for failing.
func DisabledNotice(id, ownerEmail string, s *Subscription, disableAfter time.Duration, now time.Time) Notice {
	since := now
	if s.FailingSince != nil {
		since = *s.FailingSince
	}
	body := fmt.Sprintf(`Your webhook endpoint has been disabled.

Webhook:   %s
URL:       %s
Workspace: %s

Every delivery attempt to this endpoint has failed since %s, for more than %s.
Events are no longer sent to it. Once the endpoint works again, enable it
(creatorapi webhook enable --workspace %s %s, or POST /internal/v1/workspaces/%s/webhooks/%s/enable)
and recover the failed deliveries (POST .../webhooks/%s/recover).
`, s.ID, s.URL, s.WorkspaceID, since.Format(time.RFC3339), disableAfter, s.WorkspaceID, s.ID, s.WorkspaceID, s.ID, s.ID)
	return Notice{
		ID: id, WorkspaceID: s.WorkspaceID, SubscriptionID: s.ID, To: ownerEmail,
		Subject: "Webhook endpoint disabled: " + s.URL, Body: body, CreatedAt: now,
	}
}

// Notices is the outbox of e-mail notices.
type Notices interface {
	Add(ctx context.Context, n Notice) error
	// ClaimDue leases up to limit unsent notices due at now until leaseUntil.
	ClaimDue(ctx context.Context, now, leaseUntil time.Time, limit int) ([]Notice, error)
	MarkSent(ctx context.Context, workspaceID, id string, at time.Time) error
	// MarkFailed records the error and when to try again.
	MarkFailed(ctx context.Context, workspaceID, id, errText string, retryAt time.Time) error
}
