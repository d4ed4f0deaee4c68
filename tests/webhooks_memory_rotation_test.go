package tests

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/fx"

	memwebhooks "github.com/creatorapi/creatorapi/adapters/memory/webhooks"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// With the webhooks module in memory (testenv.MemoryWebhooks), the master key's rotation
// reaches the twin through its published port (SealedSecrets): the endpoint's secret,
// sealed by the twin with the service's box, moves to the new key, the same secret.
func TestMasterKeyRotationReSealsTheMemoryTwinsSecrets(t *testing.T) {
	store := memwebhooks.New()
	var rotation *compose.KeyRotation
	env := testenv.StartWebhooks(t, testenv.NewSQLiteURL(t), nil, testenv.MemoryWebhooks(store), fx.Populate(&rotation))
	ctx := context.Background()
	ws := env.CreateWorkspace(t, "Memory")
	whk, secret := env.CreateWebhook(t, ws, "https://hooks.example/in", "course.published")
	box := func(hex string) *secrets.Box {
		t.Helper()
		key, err := secrets.ParseMasterKey(hex)
		if err != nil {
			t.Fatal(err)
		}
		b, err := secrets.NewBox(key.For(secrets.WebhookSecretsPurpose))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	opens := func(b *secrets.Box) bool {
		t.Helper()
		ok, err := store.Secrets().OpensAny(ctx, 10, func(owner string, sealed []byte) bool {
			plain, err := b.Open(owner, sealed)
			return err == nil && owner == whk && string(plain) == secret
		})
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	oldBox, newKey := box(env.Config.SecretKey), strings.Repeat("c", 64)
	if !opens(oldBox) {
		t.Fatal("the twin did not seal the secret with the service's box")
	}
	next, err := secrets.ParseMasterKey(newKey)
	if err != nil {
		t.Fatal(err)
	}
	out, err := rotation.Rotate(ctx, next)
	if err != nil || out["resealed"] != 1 || len(out["unreadable"].([]string)) != 0 {
		t.Fatalf("rotation = %v, %v; want the one endpoint re-sealed", out, err)
	}
	if !opens(box(newKey)) || opens(oldBox) {
		t.Fatal("after the rotation the new key must open the same secret, the old one nothing")
	}
	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT COUNT(*) FROM webhook_subscriptions`); err != nil || rows != 0 {
		t.Fatalf("webhook_subscriptions holds %d rows (%v): the endpoint must live in the twin", rows, err)
	}
}
