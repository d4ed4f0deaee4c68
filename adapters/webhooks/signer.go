// Package webhooks sends webhook deliveries: the signer, the SSRF-guarded HTTP sender
// and the dispatcher that claims due deliveries with bounded concurrency.
package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// UserAgent identifies the sender to receivers.
const UserAgent = "creatorapi-webhooks/1.0"

// Header names of a delivery request.
const (
	HeaderSignature = "X-SVC-Signature"
	HeaderEvent     = "X-SVC-Event"
	HeaderDelivery  = "X-SVC-Delivery"
	// HeaderTest is "true" on test events sent from the dashboard (ids start "evt_test_").
	HeaderTest = "X-SVC-Test"
	// Standard Webhooks (standardwebhooks.com), for receivers using that ecosystem's libraries.
	HeaderWebhookID        = "webhook-id"
	HeaderWebhookTimestamp = "webhook-timestamp"
	HeaderWebhookSignature = "webhook-signature"
)

// SignSVC is the spec's v1 signature: lowercase hex HMAC-SHA256 of "<t>.<body>", keyed
// with the whole signing secret as shown to its owner (whsec_...).
func SignSVC(secret webhooks.Secret, t int64, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret.String()))
	mac.Write([]byte(strconv.FormatInt(t, 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// SignStandard is the Standard Webhooks v1 signature: base64 HMAC-SHA256 of
// "<id>.<t>.<body>", keyed with the secret's decoded bytes.
func SignStandard(secret webhooks.Secret, id string, t int64, body []byte) string {
	mac := hmac.New(sha256.New, secret.Key())
	mac.Write([]byte(id + "." + strconv.FormatInt(t, 10) + "."))
	mac.Write(body)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// Message is what one attempt sends.
type Message struct {
	URL        string
	DeliveryID string
	EventID    string
	EventType  string
	Body       []byte
	// Secrets sign the request: the current one, then the previous one during a rotation.
	Secrets   []webhooks.Secret
	Timestamp int64 // unix seconds
	// Extra are the receiver's static headers and bearer token (ReceiverAuth), sent
	// besides the signature's; never logged.
	Extra http.Header
}

// Headers signs m: one v1 per secret in both schemes.
func Headers(m Message) http.Header {
	svc := []string{"t=" + strconv.FormatInt(m.Timestamp, 10)}
	var std []string
	for _, s := range m.Secrets {
		svc = append(svc, "v1="+SignSVC(s, m.Timestamp, m.Body))
		std = append(std, "v1,"+SignStandard(s, m.EventID, m.Timestamp, m.Body))
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("User-Agent", UserAgent)
	h.Set(HeaderSignature, strings.Join(svc, ","))
	h.Set(HeaderEvent, m.EventType)
	h.Set(HeaderDelivery, m.DeliveryID)
	if webhooks.IsTestEvent(m.EventID) {
		h.Set(HeaderTest, "true")
	}
	// Lowercase names as the Standard Webhooks spec writes them (HTTP names are case-insensitive).
	h[HeaderWebhookID] = []string{m.EventID}
	h[HeaderWebhookTimestamp] = []string{strconv.FormatInt(m.Timestamp, 10)}
	h[HeaderWebhookSignature] = []string{strings.Join(std, " ")}
	return h
}
