package consumers

import (
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/webhooks"
)

// WebhookFanOutName names the webhook fan-out: its ledger rows, and the consumer group it
// was until it ran inline, which Ledger.Retire winds up on start.
const WebhookFanOutName = "webhook-fanout"

// WebhookFanOut writes one delivery per matching endpoint of each public or operational event, in the
// transaction that publishes it (inline): the deliveries commit with the event, and
// nothing polls for it (docs/webhooks.md, "Fan-out").
func WebhookFanOut(app webhooks.Application) events.Consumer {
	return events.Consumer{
		Name:   WebhookFanOutName,
		Types:  events.WebhookTypes(),
		Inline: true,
		Handle: app.Commands.FanOut.Handle,
	}
}
