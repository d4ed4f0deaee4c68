package command

import (
	"context"
	"strings"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks/catalog"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// SendTestEvent queues the catalogue's example of Type for one endpoint.
type SendTestEvent struct {
	WorkspaceID string
	WebhookID   string
	Type        string
}

// TestSent names the queued delivery.
type TestSent struct {
	DeliveryID string
	EventID    string
}

// SendTestEvent writes one delivery for this endpoint only (no event is published, so no other
// endpoint and no projection sees it); the dispatcher signs and sends it like any other.
// Its event id starts with webhooks.TestEventPrefix, which makes the sender add
// X-SVC-Test: true. The endpoint need not subscribe to the type.
func (d Deps) SendTestEvent(ctx context.Context, cmd SendTestEvent) (TestSent, error) {
	entry, ok := catalog.Find(cmd.Type)
	if !ok {
		return TestSent{}, kernel.Invalid("type", "type: choose one of the %d event types", len(catalog.Entries))
	}
	s, err := d.Subs.Get(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return TestSent{}, err
	}
	if s.Status != webhooks.Enabled {
		return TestSent{}, kernel.Invalid("id", "webhook %s is disabled: enable it first", s.ID)
	}
	if err := d.takeTestEvent(ctx, cmd.WorkspaceID); err != nil {
		return TestSent{}, err
	}
	now := d.Clock.Now()
	eventID := webhooks.TestEventPrefix + strings.TrimPrefix(d.IDs.New("evt"), "evt_")
	payload, err := d.render(s.PayloadVersion, entry.Envelope(eventID, cmd.WorkspaceID, now))
	if err != nil {
		return TestSent{}, err
	}
	dl := webhooks.NewDelivery(d.IDs.New(webhooks.DeliveryIDPrefix), s, eventID, entry.Type, payload, now)
	if _, err := d.Deliveries.AddIfAbsent(ctx, dl); err != nil {
		return TestSent{}, err
	}
	d.Waker.Wake(ctx) // after the commit (Waker)
	return TestSent{DeliveryID: dl.ID, EventID: eventID}, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID,
		Action: "webhook.test_sent", Target: s.ID, Detail: entry.Type + " as " + eventID})
}
