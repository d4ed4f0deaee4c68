package consumers

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/webhooks"
)

// WebhookFanOutName is the consumer group of the webhook fan-out. Renaming it replays the
// whole stream (deliveries are unique per endpoint and event, so nothing is sent twice).
const WebhookFanOutName = "webhook-fanout"

// WebhookFanOut writes one delivery per matching endpoint of each public event; internal
// event types are acknowledged and skipped. It tells pacer how late it runs.
func WebhookFanOut(app webhooks.Application, pacer *platform.Pacer) events.Consumer {
	return events.Consumer{
		Name:  WebhookFanOutName,
		Types: events.PublicTypes,
		Handle: func(ctx context.Context, ev events.Envelope) error {
			if err := app.Commands.FanOut.Handle(ctx, ev); err != nil {
				return err
			}
			pacer.ObserveSince(platform.StageFanOut, ev.CreatedAt)
			return nil
		},
	}
}
