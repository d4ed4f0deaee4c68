package testenv

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// Webhook fixtures: a receiver that checks signatures by itself (never with the service's
// signer), and a service whose dispatcher the test drives with the manual clock.

// WebhookEnv is a started service with webhooks to loopback allowed and the dispatcher
// idle until the test calls RunDue.
type WebhookEnv struct {
	*Env
	Dispatcher *adapterwebhooks.Dispatcher
	App        webhooks.Application
}

// StartWebhooks boots the service; configure adjusts the configuration (nil: defaults
// with CREATORAPI_WEBHOOK_ALLOW_PRIVATE=true, since receivers listen on loopback).
func StartWebhooks(t testing.TB, databaseURL string, configure func(*compose.Config), extra ...fx.Option) *WebhookEnv {
	t.Helper()
	return StartWebhooksLimited(t, databaseURL, configure, adapterwebhooks.DefaultLimits, extra...)
}

// StartWebhooksLimited is StartWebhooks with the dispatcher's concurrency limits.
func StartWebhooksLimited(t testing.TB, databaseURL string, configure func(*compose.Config), limits adapterwebhooks.Limits, extra ...fx.Option) *WebhookEnv {
	t.Helper()
	w := &WebhookEnv{}
	opts := append([]fx.Option{
		fx.Decorate(func(c compose.Config) compose.Config {
			c.WebhookAllowPrivate = true
			if configure != nil {
				configure(&c)
			}
			return c
		}),
		fx.Replace(compose.WebhookDispatching{Background: false, Limits: limits}),
		fx.Populate(&w.Dispatcher, &w.App),
	}, extra...)
	w.Env = Start(t, databaseURL, opts...)
	return w
}

// RunDue sends everything due at the clock's time and waits until it is recorded.
func (w *WebhookEnv) RunDue(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := w.Dispatcher.RunDue(ctx); err != nil {
		t.Fatalf("run due deliveries: %v", err)
	}
}

// WaitDeliveries waits until the fan-out (run by the event router) has written at least
// n deliveries in total.
func (e *Env) WaitDeliveries(t testing.TB, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var got int
		if err := e.DB.Reader.GetContext(context.Background(), &got, `SELECT COUNT(*) FROM webhook_deliveries`); err != nil {
			t.Fatalf("count deliveries: %v", err)
		}
		if got >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d deliveries written after 20 s, want %d", got, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// CreateWebhook subscribes url to events in ws and returns the id and signing secret.
func (e *Env) CreateWebhook(t testing.TB, ws, url string, events ...string) (id, secret string) {
	t.Helper()
	var w struct{ ID, SigningSecret string }
	e.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws), map[string]any{"url": url, "events": events}).
		Expect(t, http.StatusCreated).Decode(t, &w)
	return w.ID, w.SigningSecret
}

// DeliveryJSON is a delivery as the operator API shows it.
type DeliveryJSON struct {
	ID            string     `json:"id"`
	WebhookID     string     `json:"webhookId"`
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	AttemptLog    []struct {
		Number     int       `json:"number"`
		At         time.Time `json:"at"`
		StatusCode *int      `json:"statusCode"`
		LatencyMs  int64     `json:"latencyMs"`
		Response   string    `json:"response"`
		Error      *string   `json:"error"`
		Outcome    string    `json:"outcome"`
	} `json:"attemptLog"`
}

// WebhookDeliveries lists the first 100 deliveries of webhook id, newest first.
func (e *Env) WebhookDeliveries(t testing.TB, ws, id string) []DeliveryJSON {
	t.Helper()
	var page struct{ Data []DeliveryJSON }
	e.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/deliveries?limit=100", ws, id)).
		Expect(t, http.StatusOK).Decode(t, &page)
	return page.Data
}

// Received is one request a Receiver got.
type Received struct {
	Header http.Header
	Body   []byte
	At     time.Time
	// EventID is the envelope's id, read once on arrival ("" for a body that is not an
	// envelope): tests that poll for every event count ids without parsing bodies again.
	EventID string
}

// Reply is what a Receiver answers.
type Reply struct {
	Status int
	Header map[string]string
	Body   string
	Delay  time.Duration
}

// Receiver is a webhook endpoint on loopback recording every request.
type Receiver struct {
	*httptest.Server
	t     testing.TB
	mu    sync.Mutex
	got   []Received
	reply func(n int, r *http.Request) Reply
}

// NewReceiver starts a receiver answering 200 until SetReply says otherwise.
func NewReceiver(t testing.TB) *Receiver {
	rc := &Receiver{t: t, reply: func(int, *http.Request) Reply { return Reply{Status: http.StatusOK, Body: "ok"} }}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *Receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var envelope struct{ ID string }
	_ = json.Unmarshal(body, &envelope)
	got := Received{Header: r.Header.Clone(), Body: body, At: time.Now(), EventID: envelope.ID}
	observeDelivery(rc.t, got)
	rc.mu.Lock()
	rc.got = append(rc.got, got)
	n, reply := len(rc.got), rc.reply
	rc.mu.Unlock()
	rep := reply(n, r)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range rep.Header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(rep.Status)
	_, _ = io.WriteString(w, rep.Body)
}

// SetReply decides the answers from now on; n counts requests from 1.
func (rc *Receiver) SetReply(fn func(n int, r *http.Request) Reply) {
	rc.mu.Lock()
	rc.reply = fn
	rc.mu.Unlock()
}

// Always answers status to every request.
func (rc *Receiver) Always(status int) {
	rc.SetReply(func(int, *http.Request) Reply { return Reply{Status: status, Body: http.StatusText(status)} })
}

// Got returns the requests received so far.
func (rc *Receiver) Got() []Received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Received(nil), rc.got...)
}

// VerifySVC checks X-SVC-Signature against secret from the raw bytes, as the spec tells
// receivers to: HMAC-SHA256 over "<t>.<body>", lowercase hex, keyed with the secret as
// shown. It returns how many v1 values the header carries and whether one matches.
func VerifySVC(r Received, secret string) (signatures int, ok bool) {
	var ts string
	var sigs []string
	for _, part := range strings.Split(r.Header.Get("X-SVC-Signature"), ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sigs = append(sigs, v)
		}
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(r.Body)
	want := mac.Sum(nil)
	for _, s := range sigs {
		got, err := hex.DecodeString(s)
		if err == nil && s == strings.ToLower(s) && hmac.Equal(got, want) {
			return len(sigs), ts == r.Header.Get("webhook-timestamp")
		}
	}
	return len(sigs), false
}

// VerifyStandard checks webhook-signature per the Standard Webhooks spec: base64 HMAC-SHA256
// over "<webhook-id>.<webhook-timestamp>.<body>" keyed with the base64-decoded secret.
func VerifyStandard(r Received, secret string) (signatures int, ok bool) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return 0, false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(r.Header.Get("webhook-id") + "." + r.Header.Get("webhook-timestamp") + "."))
	mac.Write(r.Body)
	want := mac.Sum(nil)
	sigs := strings.Fields(r.Header.Get("webhook-signature"))
	for _, s := range sigs {
		version, sig, _ := strings.Cut(s, ",")
		got, err := base64.StdEncoding.DecodeString(sig)
		if version == "v1" && err == nil && hmac.Equal(got, want) {
			return len(sigs), true
		}
	}
	return len(sigs), false
}

// Timestamp is the request's signed time.
func (r Received) Timestamp() time.Time {
	n, _ := strconv.ParseInt(r.Header.Get("webhook-timestamp"), 10, 64)
	return time.Unix(n, 0).UTC()
}
