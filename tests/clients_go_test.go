package tests

import (
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/clients/go/creatorapi"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// TestGoClient uses the Go client end to end against the service's real listener:
// batch upsert, the list iterator over several pages, GET and PATCH of one student, an
// error as *APIError, and the rate-limit headers read by the transport.
func TestGoClient(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		env, baseURL := startServing(t, databaseURL)
		ws := env.CreateWorkspace(t, "go client")
		_, key := env.CreateKey(t, ws, testenv.AllScopes()...)
		var gets int
		c, err := creatorapi.New(baseURL, key, creatorapi.TransportOptions{OnAttempt: func(a creatorapi.Attempt) {
			if a.Method == http.MethodGet {
				gets++
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		contacts := crmContacts(5)
		results, err := c.UpsertStudents(ctx, contacts)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range results {
			if r.Index != i || r.Status != creatorapi.Created {
				t.Fatalf("result %d: %+v", i, r)
			}
		}
		var seen []string
		for s, err := range c.Students(ctx, creatorapi.ListStudentsParams{Limit: ptr(creatorapi.Limit(2))}) {
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, s.Email)
		}
		if len(seen) != 5 || gets != 3 {
			t.Fatalf("iterated %d students in %d pages, want 5 in 3", len(seen), gets)
		}
		var id string
		for s, err := range c.Students(ctx, creatorapi.ListStudentsParams{ExternalId: ptr("crm-003")}) {
			if err != nil {
				t.Fatal(err)
			}
			id = s.Id
		}
		upd, err := c.UpdateStudentWithResponse(ctx, id, &creatorapi.UpdateStudentParams{}, creatorapi.StudentChanges{
			LastName: ptr("Lovelace"), Metadata: &map[string]*string{"tier": nil, "plan": ptr("pro")}})
		if err != nil || upd.StatusCode() != http.StatusOK {
			t.Fatalf("PATCH: %v %s", err, upd.Body)
		}
		got, err := c.GetStudentWithResponse(ctx, id, &creatorapi.GetStudentParams{})
		if err != nil || got.JSON200 == nil {
			t.Fatalf("GET: %v", err)
		}
		if s := got.JSON200; s.LastName != "Lovelace" {
			t.Fatalf("after PATCH: last name %q", s.LastName)
		}
		if diff := cmp.Diff(map[string]string{"plan": "pro", "source": "crm"}, got.JSON200.Metadata); diff != "" {
			t.Fatalf("metadata after PATCH (-want +got):\n%s", diff)
		}
		_, err = c.UpsertStudents(ctx, []creatorapi.StudentChanges{{}})
		if err != nil {
			t.Fatalf("an item without email or externalId fails alone, not the batch: %v", err)
		}
		var apiErr *creatorapi.APIError
		if _, err := c.UpsertStudents(ctx, make([]creatorapi.StudentChanges, 0)); err != nil {
			t.Fatalf("no items is no request: %v", err)
		}
		bad, _ := creatorapi.New(baseURL, "sk_live_unknown", creatorapi.TransportOptions{})
		_, err = bad.UpsertStudents(ctx, contacts)
		if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || apiErr.RequestID == "" || apiErr.Code == "" {
			t.Fatalf("unknown key: %v", err)
		}
		if rl := c.Transport.RateLimit(); rl.Limit != 60 || rl.DailyLimit != 1000 || rl.Remaining <= 0 {
			t.Fatalf("rate limit read from the headers: %+v", rl)
		}
	})
}

// TestGoClientVerifiesWebhooks checks VerifyWebhook on a delivery signed by the service's
// own signer (both schemes, during a rotation too) and decodes it to its typed envelope.
func TestGoClientVerifiesWebhooks(t *testing.T) {
	testenv.Parallel(t)
	secret, _ := domainwebhooks.GenerateSecret(rand.Reader)
	old, _ := domainwebhooks.GenerateSecret(rand.Reader)
	body := []byte(`{"id":"evt_1","type":"order.paid","created_at":"2026-11-21T10:00:00Z","workspace_id":"org_1","data":{"id":"ord_1","amount":4900,"currency":"EUR"}}`)
	now := time.Now()
	sent := webhooks.Headers(webhooks.Message{DeliveryID: "dlv_1", EventID: "evt_1", EventType: "order.paid", Body: body, Secrets: []domainwebhooks.Secret{secret, old}, Timestamp: now.Unix()})
	h := http.Header{} // as a receiver's net/http server has them: names canonical
	for k, v := range sent {
		for _, x := range v {
			h.Add(k, x)
		}
	}
	for _, s := range []domainwebhooks.Secret{secret, old} {
		ev, err := creatorapi.VerifyWebhook(s.String(), h, body, now)
		if err != nil {
			t.Fatal(err)
		}
		if paid, ok := ev.(*creatorapi.OrderPaidEvent); !ok || paid.Data.Id != "ord_1" || paid.Data.Amount != 4900 {
			t.Fatalf("decoded %#v", ev)
		}
	}
	std := h.Clone()
	std.Del("X-SVC-Signature")
	if _, err := creatorapi.VerifyWebhook(secret.String(), std, body, now); err != nil {
		t.Fatalf("Standard Webhooks alone: %v", err)
	}
	stranger, _ := domainwebhooks.GenerateSecret(rand.Reader)
	for name, check := range map[string]error{
		"tampered":         errOf(creatorapi.VerifyWebhook(secret.String(), h, append([]byte(" "), body...), now)),
		"wrong secret":     errOf(creatorapi.VerifyWebhook(stranger.String(), h, body, now)),
		"too late":         errOf(creatorapi.VerifyWebhook(secret.String(), h, body, now.Add(301*time.Second))),
		"std tampered":     errOf(creatorapi.VerifyWebhook(secret.String(), std, append(body, ' '), now)),
		"std wrong secret": errOf(creatorapi.VerifyWebhook(stranger.String(), std, body, now)),
	} {
		if !errors.Is(check, creatorapi.ErrSignature) {
			t.Errorf("%s: %v, want ErrSignature", name, check)
		}
	}
}

func errOf(_ any, err error) error { return err }

// TestGoClientSyncsThroughALossyNetwork is the acceptance sync with the Go client.
func TestGoClientSyncsThroughALossyNetwork(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, databaseURL string) {
		syncThroughLossyNetwork(t, databaseURL, func(t *testing.T, proxyURL, key, _ string) syncRun {
			var run syncRun
			c, err := creatorapi.New(proxyURL, key, creatorapi.TransportOptions{Attempts: 12, BaseDelay: 50 * time.Millisecond, Timeout: 10 * time.Second,
				OnAttempt: func(a creatorapi.Attempt) {
					run.Tries = append(run.Tries, struct {
						Key    string `json:"key"`
						Status int    `json:"status"`
						Error  string `json:"error"`
					}{Key: a.IdempotencyKey, Status: a.Status})
				}})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			results, err := c.UpsertStudents(context.Background(), crmContacts(300))
			if err != nil {
				t.Fatal(err)
			}
			run.MS = time.Since(start).Milliseconds()
			run.Results, run.Counts = len(results), map[string]int{}
			for _, r := range results {
				run.Counts[string(r.Status)]++
			}
			return run
		})
	})
}
