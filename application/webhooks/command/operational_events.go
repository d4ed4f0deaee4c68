package command

import (
	"context"
	"strings"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// The operational events (docs/webhook-receivers.md, "Operational events") are published in the
// transaction that records the attempt deciding them, through the outbox like any event:
// they commit with the attempt or not at all, and the inline fan-out writes their
// deliveries there, to every endpoint of the workspace that wants them but the one they
// describe.

// endpointData is an operational event's view of an endpoint.
func endpointData(s *webhooks.Subscription) events.WebhookEndpoint {
	v := events.WebhookEndpoint{ID: s.ID, Livemode: kernel.Livemode(s.WorkspaceID), URL: s.URL, Events: s.Events,
		Status: string(s.Status), DisabledAt: s.DisabledAt, FailingSince: s.FailingSince, CreatedAt: s.CreatedAt}
	if s.Status == webhooks.Disabled {
		reason := string(s.Reason)
		v.DisabledReason = &reason
	}
	return v
}

// deliveryData is webhook_delivery.exhausted's view of a delivery.
func deliveryData(d *webhooks.Delivery) events.WebhookDelivery {
	v := events.WebhookDelivery{ID: d.ID, Livemode: kernel.Livemode(d.WorkspaceID), WebhookID: d.SubscriptionID,
		EventID: d.EventID, EventType: d.EventType, Status: string(d.Status), Attempts: d.Attempts,
		LastAttemptAt: d.LastAttemptAt, CreatedAt: d.CreatedAt}
	if d.LastStatus != 0 {
		status := d.LastStatus
		v.LastStatus = &status
	}
	if d.LastError != "" {
		e := d.LastError
		v.LastError = &e
	}
	return v
}

// announcesExhaustion tells whether d failing for good is announced: not for a test event
// (nothing was published), nor for a delivery of an operational event (two failing
// endpoints would otherwise announce each other's exhaustions for ever).
func announcesExhaustion(d *webhooks.Delivery) bool {
	return d.Status == webhooks.DeliveryFailed && events.IsPublic(events.Type(d.EventType)) && !strings.HasPrefix(d.EventID, "evt_test_")
}

// publishExhausted announces the deliveries that failed for good.
func (h RecordAttemptHandler) publishExhausted(ctx context.Context, ds []*webhooks.Delivery) error {
	if h.d.Publisher == nil {
		return nil
	}
	var evs []events.Event
	for _, d := range ds {
		if announcesExhaustion(d) {
			evs = append(evs, events.WebhookDeliveryExhaustedV1.New(d.WorkspaceID, deliveryData(d)))
		}
	}
	if len(evs) == 0 {
		return nil
	}
	return h.d.Publisher.Publish(ctx, evs...)
}

// endpointEvents are the operational events of an endpoint's failure at: failing once its
// streak is FailingAfter long (once per streak, marked in FailingAlerts), and disabled
// when this failure disabled it.
// alerted says whether this replay already announced the streak.
func (h RecordAttemptHandler) endpointEvents(ctx context.Context, s *webhooks.Subscription, a webhooks.Attempt, disabled bool, alerted *bool) ([]events.Event, error) {
	if h.d.Publisher == nil {
		return nil, nil
	}
	var evs []events.Event
	if !*alerted && s.FailingSince != nil && a.At.Sub(*s.FailingSince) >= webhooks.FailingAfter && h.d.Alerts != nil {
		*alerted = true
		first, err := h.d.Alerts.Mark(ctx, s.WorkspaceID, s.ID, *s.FailingSince, a.At)
		if err != nil {
			return nil, err
		}
		if first {
			evs = append(evs, events.WebhookEndpointFailingV1.New(s.WorkspaceID, endpointData(s)))
		}
	}
	if disabled {
		evs = append(evs, events.WebhookEndpointDisabledV1.New(s.WorkspaceID, endpointData(s)))
	}
	return evs, nil
}
