// Package query reads webhook endpoints and their delivery log.
package query

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Webhook is how an endpoint is shown; its signing secret never appears again after
// creation or rotation.
type Webhook struct {
	ID                      string     `json:"id"`
	URL                     string     `json:"url"`
	Events                  []string   `json:"events"`
	Status                  string     `json:"status"`
	DisabledReason          *string    `json:"disabledReason"`
	DisabledAt              *time.Time `json:"disabledAt"`
	FailingSince            *time.Time `json:"failingSince"`
	PreviousSecretExpiresAt *time.Time `json:"previousSecretExpiresAt"`
	// SecretUnreadable: the signing secret cannot be opened with this service's master
	// key; deliveries fail until the secret is rotated (or the key restored).
	SecretUnreadable bool `json:"secretUnreadable,omitempty"`
	// Headers and Auth are the receiver's static headers and OAuth2 grant, every secret
	// value masked (webhooks.Mask). ReceiverUnreadable: they cannot be opened.
	Headers            []webhooks.Header `json:"headers,omitempty"`
	Auth               *webhooks.OAuth2  `json:"auth,omitempty"`
	ReceiverUnreadable bool              `json:"receiverUnreadable,omitempty"`
	// PayloadVersion is the API major the endpoint was created under; its deliveries are
	// rendered at it.
	PayloadVersion int       `json:"payloadVersion"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
	Pacing
}

// View maps an endpoint to its shape.
func View(s *webhooks.Subscription) Webhook {
	w := Webhook{
		ID: s.ID, URL: s.URL, Events: s.Events, Status: string(s.Status), DisabledAt: s.DisabledAt,
		FailingSince: s.FailingSince, PreviousSecretExpiresAt: s.PreviousExpiresAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
		SecretUnreadable: s.SecretUnreadable, PayloadVersion: max(s.PayloadVersion, 1),
	}
	masked := s.Receiver.Masked()
	w.Headers, w.Auth, w.ReceiverUnreadable = masked.Headers, masked.Auth, s.ReceiverUnreadable
	if s.Status == webhooks.Disabled {
		reason := string(s.Reason)
		w.DisabledReason = &reason
	}
	w.Pacing = PacingView(s)
	return w
}

// Attempt is one line of the attempt log.
type Attempt struct {
	Number     int       `json:"number"`
	At         time.Time `json:"at"`
	StatusCode *int      `json:"statusCode"`
	LatencyMs  int64     `json:"latencyMs"`
	Response   string    `json:"response"`
	Error      *string   `json:"error"`
	Outcome    string    `json:"outcome"`
}

// Delivery is one event on its way to one endpoint, with its attempt log.
type Delivery struct {
	ID            string     `json:"id"`
	WebhookID     string     `json:"webhookId"`
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	LastAttemptAt *time.Time `json:"lastAttemptAt"`
	CreatedAt     time.Time  `json:"createdAt"`
	UpdatedAt     time.Time  `json:"updatedAt"`
	AttemptLog    []Attempt  `json:"attemptLog"`
}

// DeliveryView maps a delivery and its attempts to their shape.
func DeliveryView(d *webhooks.Delivery, log []webhooks.Attempt) Delivery {
	out := Delivery{
		ID: d.ID, WebhookID: d.SubscriptionID, EventID: d.EventID, EventType: d.EventType, Status: string(d.Status),
		Attempts: d.Attempts, NextAttemptAt: d.NextAttemptAt, LastAttemptAt: d.LastAttemptAt,
		CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt, AttemptLog: make([]Attempt, 0, len(log)),
	}
	for _, a := range log {
		line := Attempt{Number: a.Number, At: a.At, LatencyMs: a.Latency.Milliseconds(), Response: a.Response, Outcome: string(a.Outcome)}
		if a.StatusCode != 0 {
			code := a.StatusCode
			line.StatusCode = &code
		}
		if a.Error != "" {
			msg := a.Error
			line.Error = &msg
		}
		out.AttemptLog = append(out.AttemptLog, line)
	}
	return out
}
