package events

import (
	"encoding/json"
	"slices"
	"time"
)

// The operational types: events about the workspace's webhook endpoints themselves.
// Endpoints subscribe to them like to any public type; the fan-out never sends one to the
// endpoint it describes (DescribedEndpoint), so a failing endpoint's alerts go elsewhere.
const (
	WebhookEndpointDisabled  Type = "webhook_endpoint.disabled"
	WebhookEndpointFailing   Type = "webhook_endpoint.failing"
	WebhookDeliveryExhausted Type = "webhook_delivery.exhausted"
)

// OperationalTypes lists the operational types in the catalogue's order.
var OperationalTypes = []Type{WebhookEndpointDisabled, WebhookEndpointFailing, WebhookDeliveryExhausted}

// WebhookTypes are the types an endpoint may subscribe to: the 13 public types, then the
// operational ones.
func WebhookTypes() []Type {
	return append(slices.Clip(PublicTypes), OperationalTypes...)
}

// IsWebhookType tells whether endpoints may subscribe to t.
func IsWebhookType(t Type) bool {
	return IsPublic(t) || slices.Contains(OperationalTypes, t)
}

// WebhookEndpoint is the data of webhook_endpoint.disabled and webhook_endpoint.failing:
// the endpoint as the operator API shows it (no secret).
type WebhookEndpoint struct {
	ID             string     `json:"id"`
	Livemode       bool       `json:"livemode"`
	URL            string     `json:"url"`
	Events         []string   `json:"events"`
	Status         string     `json:"status"`
	DisabledReason *string    `json:"disabledReason"`
	DisabledAt     *time.Time `json:"disabledAt"`
	FailingSince   *time.Time `json:"failingSince"` // the first failed attempt since the last success
	CreatedAt      time.Time  `json:"createdAt"`
}

// WebhookDelivery is the data of webhook_delivery.exhausted: a delivery that failed for
// good (its retries spent, or a response that is never retried), without its payload.
type WebhookDelivery struct {
	ID            string     `json:"id"`
	Livemode      bool       `json:"livemode"`
	WebhookID     string     `json:"webhookId"`
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	LastAttemptAt *time.Time `json:"lastAttemptAt"`
	LastStatus    *int       `json:"lastStatus"` // null without an HTTP response
	LastError     *string    `json:"lastError"`
	CreatedAt     time.Time  `json:"createdAt"`
}

// The operational contracts.
var (
	WebhookEndpointDisabledV1  = define[WebhookEndpoint](WebhookEndpointDisabled, 1)
	WebhookEndpointFailingV1   = define[WebhookEndpoint](WebhookEndpointFailing, 1)
	WebhookDeliveryExhaustedV1 = define[WebhookDelivery](WebhookDeliveryExhausted, 1)
)

// DescribedEndpoint is the id of the endpoint an operational event is about ("" for any
// other event, or data that does not say).
func DescribedEndpoint(env Envelope) string {
	switch env.Type {
	case WebhookEndpointDisabled, WebhookEndpointFailing:
		var d struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(env.Data, &d) == nil {
			return d.ID
		}
	case WebhookDeliveryExhausted:
		var d struct {
			WebhookID string `json:"webhookId"`
		}
		if json.Unmarshal(env.Data, &d) == nil {
			return d.WebhookID
		}
	}
	return ""
}
