package tests

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// produceAllTypes records, through the operator API, one change of each kind that emits
// a public event type.
func produceAllTypes(t *testing.T, env *testenv.Env, ws string) {
	t.Helper()
	admin := env.Admin()
	p := func(format string, args ...any) string {
		return fmt.Sprintf("/internal/v1/workspaces/%s/"+format, append([]any{ws}, args...)...)
	}
	course := env.CreatePublishedCourse(t, ws, "Watercolor")                                                                 // course.published
	paid := env.CreatePublishedCourse(t, ws, "Oil painting")                                                                 // course.published
	student := env.CreateStudent(t, ws, "ada@example.com")                                                                   // student.created
	admin.Do(t, http.MethodPatch, p("students/%s", student), map[string]string{"firstName": "Ada"}).Expect(t, http.StatusOK) // student.updated
	gone := env.CreateStudent(t, ws, "gone@example.com")                                                                     // student.created
	admin.Do(t, http.MethodDelete, p("students/%s", gone), nil)                                                              // student.deleted
	enrollment := env.Enroll(t, ws, student, course)                                                                         // enrollment.created
	env.RevokeEnrollment(t, ws, enrollment).Expect(t, http.StatusOK)                                                         // enrollment.revoked
	order := env.PlaceOrder(t, ws, student, "usd", testenv.OrderItem{CourseID: paid, Amount: 4900})                          // order.paid (+ enrollment.created)
	expect2xx(t, env.PostRefund(t, ws, order.ID, 0))                                                                         // order.refunded (+ enrollment.revoked)
	var session struct{ ID string }
	admin.Post(t, p("live-sessions"), map[string]string{"courseId": course, "title": "Live"}).Expect(t, http.StatusCreated).Decode(t, &session)
	expect2xx(t, admin.Post(t, p("live-sessions/%s/start", session.ID), nil))                                        // live_session.started
	expect2xx(t, admin.Post(t, p("live-sessions/%s/end", session.ID), nil))                                          // live_session.ended
	expect2xx(t, admin.Post(t, p("recordings"), map[string]any{"liveSessionId": session.ID, "durationSeconds": 60})) // recording.ready
	env.Enroll(t, ws, student, course)
	env.CompleteCourse(t, ws, student, course)
	expect2xx(t, admin.Post(t, p("certificates"), map[string]string{"studentId": student, "courseId": course})) // certificate.issued
	admin.Post(t, p("courses/%s/archive", course), nil).Expect(t, http.StatusOK)                                // course.archived
}

func expect2xx(t *testing.T, r testenv.Response) {
	t.Helper()
	if r.Status/100 != 2 {
		t.Fatalf("status %d: %s", r.Status, r.Body)
	}
}

func publicOutbox(t *testing.T, env *testenv.Env) []events.Envelope {
	var out []events.Envelope
	for _, ev := range env.OutboxEvents(t) {
		if events.IsPublic(ev.Type) {
			out = append(out, ev)
		}
	}
	return out
}

func TestWebhookDeliversEveryTypeSignedWithTheEnvelope(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		all := make([]string, len(events.PublicTypes))
		for i, typ := range events.PublicTypes {
			all[i] = string(typ)
		}
		whk, secret := env.CreateWebhook(t, ws, rc.URL+"/hook", all...)

		produceAllTypes(t, env.Env, ws)
		outbox := publicOutbox(t, env.Env)
		env.WaitDeliveries(t, len(outbox))
		env.RunDue(t)

		got := rc.Got()
		if len(got) != len(outbox) {
			t.Fatalf("receiver got %d requests, want %d (one per public event)", len(got), len(outbox))
		}
		byID := map[string]events.Envelope{}
		for _, ev := range outbox {
			byID[ev.ID] = ev
		}
		seenTypes := map[string]bool{}
		deliveryIDs := map[string]bool{}
		for _, r := range got {
			if n, ok := testenv.VerifySVC(r, secret); !ok || n != 1 {
				t.Fatalf("X-SVC-Signature %q does not verify (%d signatures)", r.Header.Get("X-SVC-Signature"), n)
			}
			if n, ok := testenv.VerifyStandard(r, secret); !ok || n != 1 {
				t.Fatalf("webhook-signature %q does not verify", r.Header.Get("webhook-signature"))
			}
			var env struct {
				ID          string          `json:"id"`
				Type        string          `json:"type"`
				CreatedAt   string          `json:"created_at"`
				WorkspaceID string          `json:"workspace_id"`
				Data        json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal(r.Body, &env); err != nil {
				t.Fatalf("body %q: %v", r.Body, err)
			}
			want, ok := byID[env.ID]
			if !ok || string(want.Type) != env.Type || env.WorkspaceID != ws || len(env.Data) < 2 || env.Data[0] != '{' {
				t.Fatalf("envelope %s does not match the outbox event %+v", r.Body, want)
			}
			if at, err := time.Parse(time.RFC3339Nano, env.CreatedAt); err != nil || at.Location() != time.UTC || env.CreatedAt[len(env.CreatedAt)-1] != 'Z' {
				t.Fatalf("created_at %q is not an ISO 8601 UTC timestamp", env.CreatedAt)
			}
			h := r.Header
			if h.Get("Content-Type") != "application/json" || h.Get("X-SVC-Event") != env.Type ||
				h.Get("webhook-id") != env.ID || h.Get("User-Agent") == "" || len(h.Get("X-SVC-Delivery")) < 5 || h.Get("X-SVC-Delivery")[:4] != "evd_" {
				t.Fatalf("headers %v for %s", h, env.Type)
			}
			if ts := r.Timestamp(); !ts.Equal(testenv.Epoch) {
				t.Fatalf("signed time %v, want the clock's %v", ts, testenv.Epoch)
			}
			seenTypes[env.Type] = true
			deliveryIDs[h.Get("X-SVC-Delivery")] = true
		}
		var missing []string
		for _, typ := range events.PublicTypes {
			if !seenTypes[string(typ)] {
				missing = append(missing, string(typ))
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Fatalf("types never delivered: %v", missing)
		}
		if len(deliveryIDs) != len(got) {
			t.Fatalf("%d distinct delivery ids for %d requests", len(deliveryIDs), len(got))
		}
		for _, d := range env.WebhookDeliveries(t, ws, whk) {
			if d.Status != "succeeded" || d.Attempts != 1 || len(d.AttemptLog) != 1 || *d.AttemptLog[0].StatusCode != 200 || d.AttemptLog[0].Response != "ok" {
				t.Fatalf("delivery log %+v", d)
			}
		}
		// Nothing is due any more: running again sends nothing.
		env.RunDue(t)
		if n := len(rc.Got()); n != len(got) {
			t.Fatalf("a second run sent %d more", n-len(got))
		}
	})
}

func TestWebhookFilteringByTypeAndTenantIsolation(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		a, b := env.CreateWorkspace(t, "A"), env.CreateWorkspace(t, "B")
		onlyArchived, published, other := testenv.NewReceiver(t), testenv.NewReceiver(t), testenv.NewReceiver(t)
		env.CreateWebhook(t, a, onlyArchived.URL, "course.archived")
		env.CreateWebhook(t, a, published.URL, "course.published", "student.created")
		disabled, _ := env.CreateWebhook(t, a, published.URL+"/disabled", "course.published")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/disable", a, disabled), nil).Expect(t, http.StatusOK)
		env.CreateWebhook(t, b, other.URL, "course.published", "course.archived")

		c1 := env.CreatePublishedCourse(t, a, "One")
		env.CreatePublishedCourse(t, a, "Two")
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/courses/%s/archive", a, c1), nil).Expect(t, http.StatusOK)
		env.WaitDeliveries(t, 3)
		time.Sleep(200 * time.Millisecond) // let a wrong extra delivery show up, if any
		env.RunDue(t)

		if n := len(onlyArchived.Got()); n != 1 || onlyArchived.Got()[0].Header.Get("X-SVC-Event") != "course.archived" {
			t.Fatalf("course.archived endpoint got %d requests", n)
		}
		for _, r := range published.Got() {
			if r.Header.Get("X-SVC-Event") != "course.published" {
				t.Fatalf("course.published endpoint got %s", r.Header.Get("X-SVC-Event"))
			}
		}
		if n := len(published.Got()); n != 2 {
			t.Fatalf("course.published endpoint got %d requests, want 2 (the disabled one none)", n)
		}
		if n := len(other.Got()); n != 0 {
			t.Fatalf("workspace B's endpoint got %d requests of workspace A", n)
		}
		// Another workspace's webhook and deliveries do not resolve.
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/deliveries", b, disabled)).ExpectError(t, http.StatusNotFound, "not_found")
		var list struct{ Data []struct{ ID string } }
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", b)).Expect(t, http.StatusOK).Decode(t, &list)
		if len(list.Data) != 1 {
			t.Fatalf("workspace B lists %d webhooks", len(list.Data))
		}
	})
}
