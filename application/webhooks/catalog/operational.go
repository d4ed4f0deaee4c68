package catalog

import "github.com/creatorapi/creatorapi/application/events"

// The operational types: events about the workspace's own endpoints, sent to the other
// endpoints that subscribe to them, never to the endpoint they describe.
var operational = []Entry{
	{Type: string(events.WebhookEndpointDisabled), Cause: "An endpoint was disabled because every attempt to it failed for the disable period (7 days by default); data is the endpoint with failingSince. Never sent to that endpoint; the owner's e-mail is sent too. Routes: none (the dispatcher decides it).", When: sentWithAttempt, Data: raw(disabledEndpointExample)},
	{Type: string(events.WebhookEndpointFailing), Cause: "An endpoint has had no successful attempt for 24 hours (every attempt since failingSince failed): sent once per failing streak. Never sent to that endpoint. Routes: none (the dispatcher decides it).", When: sentWithAttempt, Data: raw(failingEndpointExample)},
	{Type: string(events.WebhookDeliveryExhausted), Cause: "A delivery of a public event failed for good: its retries are spent, or the receiver answered what is never retried. Not sent for test events, nor for deliveries of these operational types. Never sent to the endpoint of the delivery. Routes: none (the dispatcher decides it).", When: sentWithAttempt, Data: raw(exhaustedDeliveryExample)},
}

// sentWithAttempt is when the operational events are sent.
const sentWithAttempt = "Within seconds of the attempt that decided it: the event is recorded in the transaction that records the attempt."

const failingEndpointExample = `{"id":"whk_01HZX3V9W1X3Y5Z7A9B1C3D5E7","livemode":true,"url":"https://example.com/hooks","events":["order.paid","webhook_endpoint.failing"],` +
	`"status":"enabled","disabledReason":null,"disabledAt":null,"failingSince":"2026-02-01T12:00:00Z","createdAt":"2026-01-05T08:00:00Z"}`

const disabledEndpointExample = `{"id":"whk_01HZX3V9W1X3Y5Z7A9B1C3D5E7","livemode":true,"url":"https://example.com/hooks","events":["order.paid","webhook_endpoint.failing"],` +
	`"status":"disabled","disabledReason":"failing","disabledAt":"2026-02-08T12:00:00Z","failingSince":"2026-02-01T12:00:00Z","createdAt":"2026-01-05T08:00:00Z"}`

const exhaustedDeliveryExample = `{"id":"evd_01HZX3W0X2Y4Z6A8B0C2D4E6F8","livemode":true,"webhookId":"whk_01HZX3V9W1X3Y5Z7A9B1C3D5E7","eventId":"evt_01HZX3P5Q7R9S1T3U5V7W9X1Y3",` +
	`"eventType":"order.paid","status":"failed","attempts":7,"lastAttemptAt":"2026-02-02T12:00:00Z","lastStatus":503,"lastError":null,"createdAt":"2026-02-01T12:00:00Z"}`
