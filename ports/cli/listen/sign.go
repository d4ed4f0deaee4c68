// Package listen holds the integrator's client verbs: `creatorapi listen` reads the events
// feed of the public API (no database) and forwards each event to a local receiver,
// signed as the service signs deliveries; `creatorapi sign` prints one signed delivery
// for a receiver's own tests (docs/events.md, "listen and sign").
package listen

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"net/http"
	"strings"
	"time"

	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// Delivery is one request to sign: the same fields a webhook attempt signs.
type Delivery struct {
	EventID, EventType, DeliveryID string
	Body                           []byte
	At                             time.Time
}

// Signer signs a delivery with secret exactly as the webhook sender does (its headers:
// X-SVC-Signature, X-SVC-Event, X-SVC-Delivery and the Standard Webhooks trio). The
// composition root passes the sender's own (adapters/webhooks.Headers).
type Signer func(secret domainwebhooks.Secret, d Delivery) http.Header

// deliveryID names a forwarded event's delivery: evd_ and a digest of the event id, so
// that a retry of one event carries the same delivery id, as the service's retries do.
func deliveryID(eventID string) string {
	sum := sha256.Sum256([]byte("listen/" + eventID))
	return "evd_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])[:26])
}

// newSecret draws a signing secret.
func newSecret() (domainwebhooks.Secret, error) { return domainwebhooks.GenerateSecret(rand.Reader) }
