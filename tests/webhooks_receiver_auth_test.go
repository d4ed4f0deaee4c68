package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/application/members"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// tokenServer is an OAuth2 token endpoint: it checks the client's credentials (HTTP
// basic, as golang.org/x/oauth2 sends them first) and hands out numbered tokens, or
// answers failWith while that is set.
type tokenServer struct {
	*httptest.Server
	issued   atomic.Int32
	failWith atomic.Int32
	scopes   sync.Map
}

func newTokenServer(t *testing.T, clientID, clientSecret string) *tokenServer {
	ts := &tokenServer{}
	ts.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if code := ts.failWith.Load(); code != 0 {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(int(code))
			_, _ = io.WriteString(w, `{"error":"temporarily_unavailable","error_description":"`+clientSecret+` echoed"}`)
			return
		}
		id, secret, ok := r.BasicAuth()
		if err := r.ParseForm(); err != nil || !ok || id != clientID || secret != clientSecret || r.PostForm.Get("grant_type") != "client_credentials" {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, `{"error":"invalid_client"}`)
			return
		}
		ts.scopes.Store(r.PostForm.Get("scope"), true)
		n := ts.issued.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"access_token":"token-%d-opaque","token_type":"bearer","expires_in":3600}`, n)
	}))
	t.Cleanup(ts.Close)
	return ts
}

// TestWebhookReceiverHeadersAndOAuth2OnEveryAttempt: static headers and an OAuth2 bearer
// reach the receiver on every attempt, retries included; the token is fetched once and
// shared; no value ever appears in a list, the delivery log, a dashboard page, the
// database in clear or the service's log.
func TestWebhookReceiverHeadersAndOAuth2OnEveryAttempt(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		logs := &syncBuffer{}
		var m members.Application
		w := testenv.StartWebhooks(t, dbURL, nil, fx.Populate(&m), fx.Decorate(func(*slog.Logger) *slog.Logger {
			return slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		}))
		d := webhookDash{WebhookEnv: w, dash: dashEnv{Env: w.Env, Members: m}}
		ws := d.CreateWorkspace(t, "Receivers")
		const apiKey, tenant, clientSecret = "key-7f3a9c-never-shown", "tenant-44b1-never-shown", "client-secret-91e2-never-shown"
		tokens := newTokenServer(t, "client-1", clientSecret)
		rc := testenv.NewReceiver(t)
		rc.SetReply(func(n int, _ *http.Request) testenv.Reply {
			if n <= 2 {
				return testenv.Reply{Status: http.StatusServiceUnavailable}
			}
			return testenv.Reply{Status: http.StatusOK}
		})
		var created map[string]any
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks", map[string]any{
			"url": rc.URL, "events": []string{"course.published"},
			"headers": []map[string]string{{"name": "X-Api-Key", "value": apiKey}, {"name": "X-Tenant", "value": tenant}},
			"auth": map[string]string{"type": "oauth2_client_credentials", "tokenUrl": tokens.URL, "clientId": "client-1",
				"clientSecret": clientSecret, "scope": "hooks.write  hooks.read"},
		}).Expect(t, http.StatusCreated).Decode(t, &created)
		whk := created["id"].(string)
		wantShown := map[string]any{
			"headers": []any{map[string]any{"name": "X-Api-Key", "value": "********"}, map[string]any{"name": "X-Tenant", "value": "********"}},
			"auth": map[string]any{"tokenUrl": tokens.URL, "clientId": "client-1", "clientSecret": "********",
				"scope": "hooks.write hooks.read"},
		}
		if diff := cmp.Diff(wantShown, map[string]any{"headers": created["headers"], "auth": created["auth"]}); diff != "" {
			t.Fatalf("create answer's receiver (-want +got):\n%s", diff)
		}

		d.CreatePublishedCourse(t, ws, "Course")
		d.WaitDeliveries(t, 1)
		for _, at := range []time.Duration{0, time.Minute, 6 * time.Minute} { // first failure, +1m, +5m after it
			d.Clock.Set(testenv.Epoch.Add(at))
			d.RunDue(t)
		}
		got := rc.Got()
		if len(got) != 3 {
			t.Fatalf("%d attempts, want 3 (two 503s, then 200)", len(got))
		}
		for i, r := range got {
			h := map[string]string{"X-Api-Key": r.Header.Get("X-Api-Key"), "X-Tenant": r.Header.Get("X-Tenant"), "Authorization": r.Header.Get("Authorization")}
			want := map[string]string{"X-Api-Key": apiKey, "X-Tenant": tenant, "Authorization": "Bearer token-1-opaque"}
			if diff := cmp.Diff(want, h); diff != "" {
				t.Fatalf("attempt %d headers (-want +got):\n%s", i+1, diff)
			}
			if _, ok := testenv.VerifySVC(r, created["signingSecret"].(string)); !ok {
				t.Fatalf("attempt %d: signature does not verify", i+1)
			}
		}
		if n := tokens.issued.Load(); n != 1 {
			t.Fatalf("%d tokens fetched for 3 attempts, want 1 (cached until it expires)", n)
		}
		if _, ok := tokens.scopes.Load("hooks.write hooks.read"); !ok {
			t.Fatal("the token request did not carry the scope")
		}

		// A masked value sent back keeps the stored one; a new header joins.
		var updated map[string]any
		d.Admin().Do(t, http.MethodPut, "/internal/v1/workspaces/"+ws+"/webhooks/"+whk+"/receiver", map[string]any{
			"headers": []map[string]string{{"name": "X-Api-Key", "value": "********"}, {"name": "X-Region", "value": "eu"}},
			"auth": map[string]string{"type": "oauth2_client_credentials", "tokenUrl": tokens.URL, "clientId": "client-1",
				"clientSecret": "********", "scope": "hooks.write"},
		}).Expect(t, http.StatusOK).Decode(t, &updated)
		time.Sleep(1100 * time.Millisecond) // the dispatcher keeps an endpoint's receiver for a second
		d.CreatePublishedCourse(t, ws, "Second")
		d.WaitDeliveries(t, 2)
		d.RunDue(t)
		got = rc.Got()
		last := got[len(got)-1]
		if last.Header.Get("X-Api-Key") != apiKey || last.Header.Get("X-Region") != "eu" || last.Header.Get("X-Tenant") != "" ||
			!strings.HasPrefix(last.Header.Get("Authorization"), "Bearer token-") {
			t.Fatalf("after the update: X-Api-Key %q, X-Region %q, X-Tenant %q, Authorization %q", last.Header.Get("X-Api-Key"),
				last.Header.Get("X-Region"), last.Header.Get("X-Tenant"), last.Header.Get("Authorization"))
		}

		// Nowhere to be read again: lists, the delivery log, the dashboard, the audit log,
		// the database in clear, the service's log.
		p := d.dash.signedIn(t, ws)
		var places []string
		places = append(places, string(d.Admin().Get(t, "/internal/v1/workspaces/"+ws+"/webhooks").Expect(t, http.StatusOK).Body))
		deliveries := d.WebhookDeliveries(t, ws, whk)
		raw, _ := json.Marshal(deliveries)
		places = append(places, string(raw), string(marshalJSON(t, updated)))
		places = append(places, body(p.Get(t, "/dashboard/w/"+ws+"/webhooks").Expect(t, http.StatusOK)))
		endpointPage := body(p.Get(t, "/dashboard/w/"+ws+"/webhooks/"+whk).Expect(t, http.StatusOK))
		places = append(places, endpointPage, body(p.Get(t, "/dashboard/w/"+ws+"/webhooks/"+whk+"/deliveries").Expect(t, http.StatusOK)))
		for _, dl := range deliveries {
			places = append(places, body(p.Get(t, "/dashboard/w/"+ws+"/webhooks/"+whk+"/deliveries/"+dl.ID).Expect(t, http.StatusOK)))
		}
		places = append(places, body(p.Get(t, "/dashboard/w/"+ws+"/audit").Expect(t, http.StatusOK)))
		for _, table := range []string{"webhook_subscriptions", "webhook_attempts", "webhook_deliveries", "audit_log"} {
			places = append(places, tableText(t, d.Env, table))
		}
		places = append(places, logs.String())
		for i, place := range places {
			for _, secret := range []string{apiKey, tenant, clientSecret, "token-1-opaque", "token-2-opaque"} {
				if strings.Contains(place, secret) {
					t.Fatalf("place %d shows %q:\n%.2000s", i, secret, place)
				}
			}
		}
		if !strings.Contains(endpointPage, "X-Api-Key: ********") || !strings.Contains(endpointPage, "X-Region: ********") {
			t.Fatalf("the endpoint page does not list the headers masked:\n%.3000s", endpointPage)
		}
	})
}

// TestWebhookTokenEndpointDownIsARetryableFailure: nothing reaches the receiver while the
// token endpoint fails; the attempt is retried on the schedule with the token endpoint's
// own message (never its body); once it answers, the bearer arrives.
func TestWebhookTokenEndpointDownIsARetryableFailure(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := testenv.StartWebhooks(t, dbURL, nil)
		ws := d.CreateWorkspace(t, "Tokens")
		const clientSecret = "secret-5d1c-never-shown"
		tokens := newTokenServer(t, "client-9", clientSecret)
		tokens.failWith.Store(http.StatusServiceUnavailable)
		rc := testenv.NewReceiver(t)
		var w struct{ ID string }
		d.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks", map[string]any{
			"url": rc.URL, "events": []string{"course.published"},
			"auth": map[string]string{"type": "oauth2_client_credentials", "tokenUrl": tokens.URL, "clientId": "client-9", "clientSecret": clientSecret},
		}).Expect(t, http.StatusCreated).Decode(t, &w)
		d.CreatePublishedCourse(t, ws, "Course")
		d.WaitDeliveries(t, 1)
		d.RunDue(t)
		if n := len(rc.Got()); n != 0 {
			t.Fatalf("the receiver got %d requests without a token", n)
		}
		dl := d.WebhookDeliveries(t, ws, w.ID)[0]
		if dl.Status != "pending" || len(dl.AttemptLog) != 1 || dl.AttemptLog[0].Outcome != "retry" || dl.AttemptLog[0].Error == nil ||
			*dl.AttemptLog[0].Error != "OAuth2 token endpoint answered 503 (temporarily_unavailable)" || dl.AttemptLog[0].StatusCode != nil {
			t.Fatalf("delivery after a token failure: %+v (error %v)", dl, dl.AttemptLog[0].Error)
		}
		if raw, _ := json.Marshal(dl); strings.Contains(string(raw), clientSecret) {
			t.Fatal("the attempt log shows the token endpoint's body")
		}

		// A closed token endpoint: a network failure, retried too.
		tokens.Close()
		d.Clock.Set(testenv.Epoch.Add(time.Minute))
		d.RunDue(t)
		dl = d.WebhookDeliveries(t, ws, w.ID)[0]
		if dl.Status != "pending" || len(dl.AttemptLog) != 2 || dl.AttemptLog[1].Outcome != "retry" ||
			!strings.HasPrefix(*dl.AttemptLog[1].Error, "OAuth2 token endpoint: ") || strings.Contains(*dl.AttemptLog[1].Error, "127.0.0.1") {
			t.Fatalf("second attempt: %+v (error %v)", dl.AttemptLog[1], *dl.AttemptLog[1].Error)
		}

		// Back: a new token server at another address; the next attempt carries its token.
		back := newTokenServer(t, "client-9", clientSecret)
		d.Admin().Do(t, http.MethodPut, "/internal/v1/workspaces/"+ws+"/webhooks/"+w.ID+"/receiver", map[string]any{
			"auth": map[string]string{"type": "oauth2_client_credentials", "tokenUrl": back.URL, "clientId": "client-9", "clientSecret": clientSecret},
		}).Expect(t, http.StatusOK)
		time.Sleep(1100 * time.Millisecond)
		d.Clock.Set(testenv.Epoch.Add(6 * time.Minute))
		d.RunDue(t)
		got := rc.Got()
		if len(got) != 1 || got[0].Header.Get("Authorization") != "Bearer token-1-opaque" {
			t.Fatalf("after the token endpoint came back: %d requests, Authorization %q", len(got), authOf(got))
		}
		if dl = d.WebhookDeliveries(t, ws, w.ID)[0]; dl.Status != "succeeded" || dl.Attempts != 3 {
			t.Fatalf("delivery: %s after %d attempts", dl.Status, dl.Attempts)
		}
	})
}

// TestWebhookReceiverHeadersRefused: reserved, hop-by-hop, repeated and too many headers,
// and a token URL that is not https, are refused with a message naming the rule.
func TestWebhookReceiverHeadersRefused(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.Start(t, dbURL)
		ws := env.CreateWorkspace(t, "Refusals")
		eleven := make([]map[string]string, 11)
		for i := range eleven {
			eleven[i] = map[string]string{"name": fmt.Sprintf("X-H%d", i), "value": "v"}
		}
		cases := map[string]struct {
			body map[string]any
			want string
		}{
			"X-SVC-*":    {map[string]any{"headers": []map[string]string{{"name": "X-SVC-Signature", "value": "v"}}}, "reserved"},
			"webhook-*":  {map[string]any{"headers": []map[string]string{{"name": "Webhook-Id", "value": "v"}}}, "reserved"},
			"Content-*":  {map[string]any{"headers": []map[string]string{{"name": "Content-Type", "value": "text/plain"}}}, "reserved"},
			"hop":        {map[string]any{"headers": []map[string]string{{"name": "Transfer-Encoding", "value": "chunked"}}}, "connection"},
			"host":       {map[string]any{"headers": []map[string]string{{"name": "Host", "value": "x"}}}, "connection"},
			"twice":      {map[string]any{"headers": []map[string]string{{"name": "X-A", "value": "1"}, {"name": "x-a", "value": "2"}}}, "twice"},
			"eleven":     {map[string]any{"headers": eleven}, "at most 10"},
			"bad name":   {map[string]any{"headers": []map[string]string{{"name": "X A", "value": "1"}}}, "not a header name"},
			"newline":    {map[string]any{"headers": []map[string]string{{"name": "X-A", "value": "1\r\nX-B: 2"}}}, "printable"},
			"bearer+key": {map[string]any{"headers": []map[string]string{{"name": "Authorization", "value": "k"}}, "auth": oauth("https://auth.example/token")}, "OAuth2"},
			"http token": {map[string]any{"auth": oauth("http://auth.example/token")}, "tokenUrl"},
		}
		for name, c := range cases {
			body := map[string]any{"url": "https://hooks.example/in", "events": []string{"course.published"}}
			for k, v := range c.body {
				body[k] = v
			}
			r := env.Admin().Post(t, "/internal/v1/workspaces/"+ws+"/webhooks", body)
			if r.Status != http.StatusUnprocessableEntity && r.Status != http.StatusBadRequest || !strings.Contains(string(r.Body), c.want) {
				t.Errorf("%s: %d %s, want a refusal naming %q", name, r.Status, r.Body, c.want)
			}
		}
	})
}

func oauth(tokenURL string) map[string]string {
	return map[string]string{"type": "oauth2_client_credentials", "tokenUrl": tokenURL, "clientId": "c", "clientSecret": "s"}
}

func authOf(got []testenv.Received) []string {
	out := make([]string, len(got))
	for i, r := range got {
		out[i] = r.Header.Get("Authorization")
	}
	return out
}

func marshalJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// tableText is every row of table as text (sealed bytes stay sealed: a value in clear
// would show).
func tableText(t *testing.T, env *testenv.Env, table string) string {
	t.Helper()
	rows, err := env.DB.Reader.QueryxContext(context.Background(), "SELECT * FROM "+table)
	if err != nil {
		t.Fatalf("read %s: %v", table, err)
	}
	defer rows.Close()
	var sb strings.Builder
	for rows.Next() {
		vals, err := rows.SliceScan()
		if err != nil {
			t.Fatalf("scan %s: %v", table, err)
		}
		for _, v := range vals {
			switch x := v.(type) {
			case []byte:
				sb.Write(x)
			default:
				fmt.Fprint(&sb, x)
			}
			sb.WriteByte('\t')
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// TestDashboardReceiverAndBackfillForms: the endpoint page's forms set the headers (shown
// masked; a masked line keeps the stored value; a reserved name is refused) and queue a
// backfill (at most 30 days back).
func TestDashboardReceiverAndBackfillForms(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		d := startWebhookDashboard(t, dbURL)
		ws := d.CreateWorkspace(t, "Forms")
		rc := testenv.NewReceiver(t)
		whk, _ := d.CreateWebhook(t, ws, rc.URL, "course.published")
		p := d.dash.signedIn(t, ws)
		page := "/dashboard/w/" + ws + "/webhooks/" + whk
		p.Get(t, page).Expect(t, http.StatusOK)
		const key = "dash-key-3b7e-never-shown"
		p.Post(t, page+"/receiver", url.Values{"header": {"X-Api-Key: " + key, "X-Two: second-value-never-shown", ""}}).Expect(t, http.StatusSeeOther)
		shown := body(p.Get(t, page).Expect(t, http.StatusOK))
		if !strings.Contains(shown, "X-Api-Key: ********") || strings.Contains(shown, key) || strings.Contains(shown, "second-value") {
			t.Fatalf("the endpoint page after saving headers:\n%.3000s", shown)
		}
		r := p.Post(t, page+"/receiver", url.Values{"header": {"X-Api-Key: ********", "X-SVC-Event: x"}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(body(r), "reserved") {
			t.Fatalf("a reserved name: %d", r.Status)
		}
		p.Get(t, page).Expect(t, http.StatusOK)
		p.Post(t, page+"/receiver", url.Values{"header": {"X-Api-Key: ********", ""}}).Expect(t, http.StatusSeeOther)
		time.Sleep(1100 * time.Millisecond)
		d.CreatePublishedCourse(t, ws, "Course")
		d.WaitDeliveries(t, 1)
		d.RunDue(t)
		if got := rc.Got(); len(got) != 1 || got[0].Header.Get("X-Api-Key") != key || got[0].Header.Get("X-Two") != "" {
			t.Fatalf("the receiver got %d requests; X-Api-Key kept from the masked line, X-Two removed: %v", len(got), got)
		}

		p.Get(t, page).Expect(t, http.StatusOK)
		r = p.Post(t, page+"/backfill", url.Values{"since": {testenv.Epoch.Add(-40 * 24 * time.Hour).Format("2006-01-02T15:04")}})
		if r.Status != http.StatusUnprocessableEntity || !strings.Contains(body(r), "30 days") {
			t.Fatalf("a backfill 40 days back: %d", r.Status)
		}
		p.Get(t, page).Expect(t, http.StatusOK)
		p.Post(t, page+"/backfill", url.Values{"since": {testenv.Epoch.Add(-time.Hour).Format("2006-01-02T15:04")}}).Expect(t, http.StatusSeeOther)
		if shown := body(p.Get(t, page).Expect(t, http.StatusOK)); !strings.Contains(shown, "Last backfill: events since") {
			t.Fatalf("the endpoint page does not show the backfill:\n%.3000s", shown)
		}
	})
}
