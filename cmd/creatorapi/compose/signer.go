package compose

import (
	"net/http"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/ports/cli/listen"
)

// DeliverySigner is the webhook sender's own signer for the client verbs (listen, sign):
// what they forward or print is signed exactly as a delivery.
func DeliverySigner() listen.Signer {
	return func(secret domainwebhooks.Secret, d listen.Delivery) http.Header {
		return adapterwebhooks.Headers(adapterwebhooks.Message{DeliveryID: d.DeliveryID, EventID: d.EventID, EventType: d.EventType,
			Body: d.Body, Secrets: []domainwebhooks.Secret{secret}, Timestamp: d.At.Unix()})
	}
}
