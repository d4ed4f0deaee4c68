package tests

import (
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

func TestWebhookSSRFGuardOnTheWholePath(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) { c.WebhookAllowPrivate = false })
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		_, port, _ := net.SplitHostPort(rc.Listener.Addr().String())
		// http:// is refused when the endpoint is created.
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws), map[string]any{"url": rc.URL, "events": []string{"course.published"}}).
			ExpectError(t, http.StatusUnprocessableEntity, "invalid_request")
		targets := []string{
			"https://localhost:" + port + "/hook", // a name resolving to loopback
			"https://127.0.0.1:" + port + "/hook",
			"https://[::1]:" + port + "/hook",
			"https://[::ffff:127.0.0.1]:" + port + "/hook",
			"https://10.1.2.3/", "https://172.16.0.1/", "https://192.168.0.1/",
			"https://169.254.169.254/latest/meta-data/", "https://[fd00:ec2::254]/",
			"https://100.64.0.1/", "https://224.0.0.1/", "https://0.0.0.0/", "https://[fe80::1]/",
		}
		ids := map[string]string{}
		for _, u := range targets {
			ids[u], _ = env.CreateWebhook(t, ws, u, "course.published")
		}
		env.CreatePublishedCourse(t, ws, "Course")
		env.WaitDeliveries(t, len(targets))
		env.RunDue(t)
		env.Clock.Advance(time.Hour)
		env.RunDue(t)
		for u, id := range ids {
			d := env.WebhookDeliveries(t, ws, id)[0]
			if d.Status != "failed" || d.Attempts != 1 || d.AttemptLog[0].Error == nil || !strings.Contains(*d.AttemptLog[0].Error, "refused") {
				t.Errorf("%s: %+v, want failed once, refused", u, d)
			}
		}
		if n := len(rc.Got()); n != 0 {
			t.Fatalf("the loopback receiver got %d requests", n)
		}
	})
}

func TestWebhookSecretRotationSendsBothSignaturesFor24Hours(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		whk, oldSecret := env.CreateWebhook(t, ws, rc.URL, "course.published")
		if !strings.HasPrefix(oldSecret, "whsec_") || len(oldSecret) < len("whsec_")+43 {
			t.Fatalf("secret %q: want whsec_ and the base64 of at least 32 bytes", oldSecret)
		}
		var rotated struct {
			ID                      string
			SigningSecret           string
			PreviousSecretExpiresAt time.Time
		}
		env.Admin().Post(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks/%s/rotate-secret", ws, whk), nil).Expect(t, http.StatusOK).Decode(t, &rotated)
		newSecret := rotated.SigningSecret
		if newSecret == oldSecret || !rotated.PreviousSecretExpiresAt.Equal(testenv.Epoch.Add(24*time.Hour)) {
			t.Fatalf("rotation %+v", rotated)
		}
		// The secret is never shown again.
		list := env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws))
		if strings.Contains(string(list.Body), "whsec_") || strings.Contains(string(list.Body), "signingSecret") {
			t.Fatalf("list shows a secret: %s", list.Body)
		}
		env.CreatePublishedCourse(t, ws, "During the overlap")
		env.WaitDeliveries(t, 1)
		env.RunDue(t)
		r := rc.Got()[0]
		for name, secret := range map[string]string{"old": oldSecret, "new": newSecret} {
			if n, ok := testenv.VerifySVC(r, secret); !ok || n != 2 {
				t.Fatalf("X-SVC-Signature with the %s secret: %d signatures, valid %v", name, n, ok)
			}
			if n, ok := testenv.VerifyStandard(r, secret); !ok || n != 2 {
				t.Fatalf("webhook-signature with the %s secret: %d signatures, valid %v", name, n, ok)
			}
		}
		env.Clock.Set(testenv.Epoch.Add(24 * time.Hour))
		env.CreatePublishedCourse(t, ws, "After the overlap")
		env.WaitDeliveries(t, 2)
		env.RunDue(t)
		r = rc.Got()[1]
		if n, ok := testenv.VerifySVC(r, newSecret); !ok || n != 1 {
			t.Fatalf("after 24 h: %d signatures, new valid %v", n, ok)
		}
		if _, ok := testenv.VerifySVC(r, oldSecret); ok {
			t.Fatal("the old secret still signs after 24 h")
		}
	})
}

func TestWebhookSecretsAreEncryptedAtRest(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, nil)
		ws := env.CreateWorkspace(t, "Academy")
		whk, secret := env.CreateWebhook(t, ws, "https://example.com/hook", "course.published")
		var sealed []byte
		if err := env.DB.Reader.Get(&sealed, env.DB.Reader.Rebind(`SELECT secret_sealed FROM webhook_subscriptions WHERE id = ?`), whk); err != nil {
			t.Fatal(err)
		}
		key := strings.TrimPrefix(secret, "whsec_")
		if strings.Contains(string(sealed), key) || strings.Contains(string(sealed), secret) || len(sealed) < len(secret)+28 {
			t.Fatalf("the stored secret is not sealed: %d bytes", len(sealed))
		}
		// Bound to its subscription: copied onto another row, it does not open.
		other, _ := env.CreateWebhook(t, ws, "https://example.com/other", "course.published")
		if _, err := env.DB.Writer.Exec(env.DB.Writer.Rebind(`UPDATE webhook_subscriptions SET secret_sealed = ? WHERE id = ?`), sealed, other); err != nil {
			t.Fatal(err)
		}
		// It does not fail the list either: the row is shown as unreadable (docs/webhooks.md).
		var list struct{ Data []map[string]any }
		env.Admin().Get(t, fmt.Sprintf("/internal/v1/workspaces/%s/webhooks", ws)).Expect(t, http.StatusOK).Decode(t, &list)
		for _, w := range list.Data {
			if unreadable := w["secretUnreadable"] == true; unreadable != (w["id"] == other) {
				t.Fatalf("webhook %v: secretUnreadable %v; only the row with the moved secret must be", w["id"], unreadable)
			}
		}
	})
}
