package webhooks

import (
	"context"
	"net/http"
	"time"

	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// RequestHeaders rebuilds the headers an attempt sent with the dispatcher's own signer
// (the dashboard's delivery log shows them): the secrets that signed at at (a secret
// rotated out twice since is no longer known).
func RequestHeaders(subs domainwebhooks.Repository) func(context.Context, string, *domainwebhooks.Delivery, time.Time) (http.Header, error) {
	return func(ctx context.Context, ws string, d *domainwebhooks.Delivery, at time.Time) (http.Header, error) {
		s, err := subs.Get(ctx, ws, d.SubscriptionID)
		if err != nil {
			return nil, err
		}
		h := Headers(Message{URL: s.URL, DeliveryID: d.ID, EventID: d.EventID, EventType: d.EventType,
			Body: d.Payload, Secrets: s.Signing(at), Timestamp: at.Unix()})
		// The receiver's headers and token, named but masked: their values are secrets.
		for _, rh := range s.Receiver.Masked().Headers {
			h.Set(rh.Name, rh.Value)
		}
		if s.Receiver.Auth != nil {
			h.Set("Authorization", "Bearer "+domainwebhooks.Mask)
		}
		return h, nil
	}
}
