package creatorapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ReplayWindow is how far a delivery's timestamp may be from now (both schemes).
const ReplayWindow = 300 * time.Second

// ErrSignature is wrapped by every verification failure.
var ErrSignature = errors.New("creatorapi: webhook signature")

// VerifyWebhook checks a delivery's signature over its raw body and returns the typed
// event (see DecodeEvent). It accepts X-SVC-Signature (lowercase hex HMAC-SHA256 of
// "<t>.<body>" keyed with the whole "whsec_..." secret) and, when that header is absent,
// Standard Webhooks (base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>" keyed
// with the base64-decoded bytes after "whsec_"): docs/webhooks.md. During a secret
// rotation a delivery carries one signature per secret; either verifies. now is the clock
// (time.Now in production).
func VerifyWebhook(secret string, h http.Header, body []byte, now time.Time) (any, error) {
	var err error
	if h.Get("X-SVC-Signature") != "" {
		err = VerifySVCSignature(secret, h.Get("X-SVC-Signature"), body, now)
	} else {
		err = VerifyStandardWebhook(secret, h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"), body, now)
	}
	if err != nil {
		return nil, err
	}
	return DecodeEvent(body)
}

// VerifySVCSignature checks an X-SVC-Signature header (t=<unix>,v1=<hex>[,v1=<hex>]).
func VerifySVCSignature(secret, header string, body []byte, now time.Time) error {
	var t string
	var sigs []string
	for _, part := range strings.Split(header, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case ok && k == "t":
			t = v
		case ok && k == "v1":
			sigs = append(sigs, v)
		}
	}
	if t == "" || len(sigs) == 0 {
		return fmt.Errorf("%w: malformed X-SVC-Signature", ErrSignature)
	}
	if err := inWindow(t, now); err != nil {
		return err
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "."))
	mac.Write(body)
	want := []byte(hex.EncodeToString(mac.Sum(nil)))
	for _, s := range sigs {
		if hmac.Equal([]byte(s), want) {
			return nil
		}
	}
	return fmt.Errorf("%w: no v1 signature matches", ErrSignature)
}

// VerifyStandardWebhook checks Standard Webhooks headers (webhook-signature: "v1,<base64>"
// separated by spaces).
func VerifyStandardWebhook(secret, id, timestamp, signature string, body []byte, now time.Time) error {
	if id == "" || timestamp == "" || signature == "" {
		return fmt.Errorf("%w: missing webhook-id, webhook-timestamp or webhook-signature", ErrSignature)
	}
	if err := inWindow(timestamp, now); err != nil {
		return err
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return fmt.Errorf("%w: the secret is not whsec_<base64>: %w", ErrSignature, err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	want := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	for _, s := range strings.Fields(signature) {
		version, sig, ok := strings.Cut(s, ",")
		if ok && version == "v1" && hmac.Equal([]byte(sig), want) {
			return nil
		}
	}
	return fmt.Errorf("%w: no v1 signature matches", ErrSignature)
}

func inWindow(t string, now time.Time) error {
	sec, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q is not unix seconds", ErrSignature, t)
	}
	if d := now.Sub(time.Unix(sec, 0)); d > ReplayWindow || d < -ReplayWindow {
		return fmt.Errorf("%w: timestamp outside the replay window", ErrSignature)
	}
	return nil
}

// DecodeEvent decodes a delivery's body into its typed envelope, by its type:
// *StudentCreatedEvent, *OrderPaidEvent, ... (a type this client does not know yet:
// *EventEnvelope, its data untyped).
func DecodeEvent(body []byte) (any, error) {
	var head struct {
		Type EventType `json:"type"`
	}
	if err := json.Unmarshal(body, &head); err != nil {
		return nil, fmt.Errorf("creatorapi: decode event: %w", err)
	}
	var ev any
	switch head.Type {
	case StudentCreated:
		ev = new(StudentCreatedEvent)
	case StudentUpdated:
		ev = new(StudentUpdatedEvent)
	case StudentDeleted:
		ev = new(StudentDeletedEvent)
	case EnrollmentCreated:
		ev = new(EnrollmentCreatedEvent)
	case EnrollmentRevoked:
		ev = new(EnrollmentRevokedEvent)
	case OrderPaid:
		ev = new(OrderPaidEvent)
	case OrderRefunded:
		ev = new(OrderRefundedEvent)
	case CoursePublished:
		ev = new(CoursePublishedEvent)
	case CourseArchived:
		ev = new(CourseArchivedEvent)
	case LiveSessionStarted:
		ev = new(LiveSessionStartedEvent)
	case LiveSessionEnded:
		ev = new(LiveSessionEndedEvent)
	case RecordingReady:
		ev = new(RecordingReadyEvent)
	case CertificateIssued:
		ev = new(CertificateIssuedEvent)
	default:
		ev = new(EventEnvelope)
	}
	if err := json.Unmarshal(body, ev); err != nil {
		return nil, fmt.Errorf("creatorapi: decode %s event: %w", head.Type, err)
	}
	return ev, nil
}
