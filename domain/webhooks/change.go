package webhooks

import (
	"strings"
	"time"
)

// Change points the endpoint at another URL and event types (already checked against the
// public types). Its secret, status and failing streak stay as they are.
func (s *Subscription) Change(rawURL string, eventTypes []string, allowHTTP bool, now time.Time) error {
	probe, err := NewSubscription(s.ID, s.WorkspaceID, rawURL, eventTypes, s.Secret, allowHTTP, now)
	if err != nil {
		return err
	}
	s.URL, s.Events, s.UpdatedAt = probe.URL, probe.Events, now
	return nil
}

// TestEventPrefix starts the event id of every test event ("evt_test_..."): receivers see
// it in the body's id and in the webhook-id header, and the sender adds X-SVC-Test: true.
const TestEventPrefix = "evt_test_"

// IsTestEvent tells whether eventID is a test event's.
func IsTestEvent(eventID string) bool { return strings.HasPrefix(eventID, TestEventPrefix) }

// WithLink appends a link to the notice's body (the endpoint's page in the dashboard).
func (n Notice) WithLink(label, url string) Notice {
	if url != "" {
		n.Body += "\n" + label + ":\n" + url + "\n"
	}
	return n
}
