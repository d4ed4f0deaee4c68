package consumers

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/webhooks"
)

// WebhookFanOutName is the consumer group of the webhook fan-out. Renaming it replays the
// whole stream (deliveries are unique per endpoint and event, so nothing is sent twice).
const WebhookFanOutName = "webhook-fanout"

// WebhookFanOut writes one delivery per matching endpoint of each public event; internal
// event types are acknowledged and skipped.
func WebhookFanOut(app webhooks.Application) events.Consumer {
	return events.Consumer{
		Name:  WebhookFanOutName,
		Types: events.PublicTypes,
		Handle: func(ctx context.Context, ev events.Envelope) error {
			return app.Commands.FanOut.Handle(ctx, ev)
		},
	}
}
