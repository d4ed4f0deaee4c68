package tests

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"go.uber.org/fx"

	adapterwebhooks "github.com/creatorapi/creatorapi/adapters/webhooks"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestWebhookRetriesAtExactlyTheScheduleOffsets(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		rc.Always(http.StatusInternalServerError)
		whk, secret := env.CreateWebhook(t, ws, rc.URL, "course.published")
		env.CreatePublishedCourse(t, ws, "Course")
		env.WaitDeliveries(t, 1)
		env.RunDue(t)
		if n := len(rc.Got()); n != 1 {
			t.Fatalf("first attempt: %d requests", n)
		}
		// The spec's schedule, as offsets from the first failure.
		offsets := []time.Duration{time.Minute, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 6 * time.Hour, 24 * time.Hour}
		for i, off := range offsets {
			env.Clock.Set(testenv.Epoch.Add(off - time.Second))
			env.RunDue(t)
			if n := len(rc.Got()); n != i+1 {
				t.Fatalf("one second before +%s: %d requests, want %d", off, n, i+1)
			}
			env.Clock.Set(testenv.Epoch.Add(off))
			env.RunDue(t)
			got := rc.Got()
			if len(got) != i+2 {
				t.Fatalf("at +%s: %d requests, want %d", off, len(got), i+2)
			}
			last := got[len(got)-1]
			if !last.Timestamp().Equal(testenv.Epoch.Add(off)) || last.Header.Get("X-SVC-Delivery") != got[0].Header.Get("X-SVC-Delivery") ||
				string(last.Body) != string(got[0].Body) {
				t.Fatalf("retry at +%s: time %v, delivery id or body changed", off, last.Timestamp())
			}
			if _, ok := testenv.VerifySVC(last, secret); !ok {
				t.Fatalf("retry at +%s: signature does not verify", off)
			}
		}
		env.Clock.Set(testenv.Epoch.Add(72 * time.Hour))
		env.RunDue(t)
		if n := len(rc.Got()); n != 7 {
			t.Fatalf("after the schedule: %d requests, want 7", n)
		}
		d := env.WebhookDeliveries(t, ws, whk)[0]
		if d.Status != "failed" || d.Attempts != 7 || d.NextAttemptAt != nil || len(d.AttemptLog) != 7 {
			t.Fatalf("delivery %+v", d)
		}
		for i, a := range d.AttemptLog {
			want := testenv.Epoch
			if i > 0 {
				want = want.Add(offsets[i-1])
			}
			outcome := "retry"
			if i == 6 {
				outcome = "failed"
			}
			if !a.At.Equal(want) || a.StatusCode == nil || *a.StatusCode != 500 || a.Outcome != outcome || a.Response != "Internal Server Error" {
				t.Fatalf("attempt %d: %+v, want at %v with outcome %s", i+1, a, want, outcome)
			}
		}
	})
}

func TestWebhookResponsePolicy(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		// Attempts give up after 2 s here instead of 10 s, so the timeout path runs fast. (At
		// 300 ms a CI run under load timed out a 400 and a 301 answered late: pending, not failed.)
		env := testenv.StartWebhooks(t, dbURL, nil,
			fx.Decorate(func(s *adapterwebhooks.Sender) *adapterwebhooks.Sender { return s.WithTimeout(2 * time.Second) }))
		ws := env.CreateWorkspace(t, "Academy")
		target := testenv.NewReceiver(t) // where redirects point: must never be reached
		rc := testenv.NewReceiver(t)
		rc.SetReply(func(_ int, r *http.Request) testenv.Reply {
			path := strings.TrimPrefix(r.URL.Path, "/")
			switch {
			case path == "slow":
				return testenv.Reply{Status: 200, Delay: 4 * time.Second}
			case path == "limited-long":
				return testenv.Reply{Status: 429, Header: map[string]string{"Retry-After": "3600"}}
			case path == "limited-short":
				return testenv.Reply{Status: 429, Header: map[string]string{"Retry-After": "10"}}
			case strings.HasPrefix(path, "redirect"):
				code := 302
				fmt.Sscanf(path, "redirect%d", &code)
				return testenv.Reply{Status: code, Header: map[string]string{"Location": target.URL}}
			}
			var code int
			fmt.Sscanf(path, "%d", &code)
			return testenv.Reply{Status: code, Body: strings.Repeat("x", 3000)}
		})
		cases := map[string]struct {
			status string
			next   time.Duration // 0: no further attempt
		}{
			"200": {"succeeded", 0}, "201": {"succeeded", 0}, "204": {"succeeded", 0},
			"500": {"pending", time.Minute}, "502": {"pending", time.Minute}, "503": {"pending", time.Minute},
			"408": {"pending", time.Minute}, "429": {"pending", time.Minute},
			"limited-long": {"pending", time.Hour}, "limited-short": {"pending", time.Minute},
			"slow": {"pending", time.Minute},
			"400":  {"failed", 0}, "401": {"failed", 0}, "404": {"failed", 0}, "410": {"failed", 0}, "422": {"failed", 0},
			"redirect301": {"failed", 0}, "redirect302": {"failed", 0}, "redirect307": {"failed", 0}, "redirect308": {"failed", 0},
		}
		ids := map[string]string{}
		for path := range cases {
			ids[path], _ = env.CreateWebhook(t, ws, rc.URL+"/"+path, "course.published")
		}
		closed := "http://127.0.0.1:1/nothing-listens-here"
		ids["network"], _ = env.CreateWebhook(t, ws, closed, "course.published")
		cases["network"] = struct {
			status string
			next   time.Duration
		}{"pending", time.Minute}

		env.CreatePublishedCourse(t, ws, "Course")
		env.WaitDeliveries(t, len(cases))
		env.RunDue(t)
		for path, want := range cases {
			d := env.WebhookDeliveries(t, ws, ids[path])[0]
			if d.Status != want.status || d.Attempts != 1 {
				t.Errorf("%s: status %s after %d attempts, want %s", path, d.Status, d.Attempts, want.status)
				continue
			}
			if want.next == 0 && d.NextAttemptAt != nil || want.next != 0 && (d.NextAttemptAt == nil || !d.NextAttemptAt.Equal(testenv.Epoch.Add(want.next))) {
				t.Errorf("%s: next attempt %v, want +%s", path, d.NextAttemptAt, want.next)
			}
			a := d.AttemptLog[0]
			if len(a.Response) > 1024 {
				t.Errorf("%s: logged %d bytes of response, want at most 1 KiB", path, len(a.Response))
			}
			switch path {
			case "slow":
				if a.StatusCode != nil || a.Error == nil || !strings.Contains(*a.Error, "timeout") {
					t.Errorf("slow: attempt %+v, want a timeout error", a)
				}
			case "network":
				if a.StatusCode != nil || a.Error == nil {
					t.Errorf("network: attempt %+v, want a network error", a)
				}
			}
		}
		if n := len(target.Got()); n != 0 {
			t.Fatalf("a redirect was followed: the target got %d requests", n)
		}
		// One minute later only the retried ones are tried again; failed ones never.
		before := len(rc.Got())
		env.Clock.Set(testenv.Epoch.Add(time.Minute))
		env.RunDue(t)
		retried := len(rc.Got()) - before
		if want := 7; retried != want { // 500, 502, 503, 408, 429, limited-short, slow
			t.Fatalf("%d retries at +1m, want %d", retried, want)
		}
		d := env.WebhookDeliveries(t, ws, ids["limited-long"])[0]
		if d.Attempts != 1 {
			t.Fatalf("Retry-After 3600 not honoured: %d attempts at +1m", d.Attempts)
		}
		env.Clock.Set(testenv.Epoch.Add(time.Hour))
		env.RunDue(t)
		if d := env.WebhookDeliveries(t, ws, ids["limited-long"])[0]; d.Attempts != 2 {
			t.Fatalf("limited-long: %d attempts at +1h, want 2", d.Attempts)
		}
	})
}

func TestWebhookResendAndRecover(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		rc.Always(http.StatusGone) // fails without retry
		whk, _ := env.CreateWebhook(t, ws, rc.URL, "course.published")
		for i := 0; i < 3; i++ {
			env.CreatePublishedCourse(t, ws, fmt.Sprintf("Course %d", i))
		}
		env.WaitDeliveries(t, 3)
		env.RunDue(t)
		list := env.WebhookDeliveries(t, ws, whk)
		for _, d := range list {
			if d.Status != "failed" {
				t.Fatalf("delivery %s is %s, want failed", d.ID, d.Status)
			}
		}
		rc.Always(http.StatusOK)
		admin := env.Admin()
		// Resend one: same delivery id and bytes, a new attempt.
		first := rc.Got()[0]
		var resent testenv.DeliveryJSON
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/deliveries/%s/resend", ws, first.Header.Get("X-SVC-Delivery")), nil).
			Expect(t, http.StatusAccepted).Decode(t, &resent)
		if resent.Status != "pending" {
			t.Fatalf("resent delivery is %s", resent.Status)
		}
		env.RunDue(t)
		got := rc.Got()
		if len(got) != 4 || got[3].Header.Get("X-SVC-Delivery") != first.Header.Get("X-SVC-Delivery") || string(got[3].Body) != string(first.Body) {
			t.Fatalf("resend: %d requests, last %v", len(got), got[len(got)-1].Header)
		}
		// Recover the rest: every failed delivery since the epoch.
		var rec struct{ Recovered int }
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/recover", ws, whk), map[string]any{"since": testenv.Epoch.Add(-time.Hour)}).
			Expect(t, http.StatusAccepted).Decode(t, &rec)
		if rec.Recovered != 2 {
			t.Fatalf("recovered %d, want 2", rec.Recovered)
		}
		env.RunDue(t)
		for _, d := range env.WebhookDeliveries(t, ws, whk) {
			if d.Status != "succeeded" || d.Attempts != 2 {
				t.Fatalf("after recovery: %+v", d)
			}
		}
		// Validation and scoping.
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/recover", ws, whk), map[string]any{}).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		other := env.CreateWorkspace(t, "Other")
		admin.Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/deliveries/%s/resend", other, first.Header.Get("X-SVC-Delivery")), nil).ExpectError(t, http.StatusNotFound, "not_found")
		admin.Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/deliveries?status=bogus", ws, whk)).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		admin.Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/deliveries?nope=1", ws, whk)).ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
	})
}
