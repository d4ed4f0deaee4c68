package tests

import (
	"context"
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// An instance still running with the old key after another process rotated it does not
// fail every delivery as "signing secret cannot be opened": it sees its key is stale,
// gives the deliveries back untouched, and an instance with the new key sends them,
// signed with the endpoint's unchanged secret.
func TestStaleMasterKeyNeverFailsDeliveries(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		stale := testenv.StartWebhooks(t, dbURL, nil)
		ws := stale.CreateWorkspace(t, "Academy")
		rc := testenv.NewReceiver(t)
		whk, secret := stale.CreateWebhook(t, ws, rc.URL, "course.published")

		oldKey, _ := secrets.ParseMasterKey(stale.Config.SecretKey)
		newKey, _ := secrets.ParseMasterKey(strings.Repeat("5a", 32))
		oldBox, _ := secrets.NewBox(oldKey.For(secrets.WebhookSecretsPurpose))
		newBox, _ := secrets.NewBox(newKey.For(secrets.WebhookSecretsPurpose))
		check, _ := newKey.Check()
		rot, err := sqlstore.NewMasterKeyStore(stale.DB, sqlwebhooks.NewSecrets(stale.DB)).Rotate(context.Background(),
			sqlstore.Resealer{Opens: oldKey.Opens, Old: oldBox, New: newBox, NewCheck: check}, testenv.Epoch)
		if err != nil || rot.Resealed != 1 {
			t.Fatalf("rotate: %+v %v", rot, err)
		}

		fanOut(t, stale, syntheticEvents(ws, 1)...)
		if err := stale.Dispatcher.RunDue(context.Background()); err == nil || !strings.Contains(err.Error(), "master key") {
			t.Fatalf("stale instance: %v, want a master key error", err)
		}
		for _, d := range stale.WebhookDeliveries(t, ws, whk) {
			if d.Status != "pending" || d.Attempts != 0 {
				t.Fatalf("the stale instance touched delivery %+v", d)
			}
		}

		current := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) { c.SecretKey = newKey.Hex() })
		current.RunDue(t)
		got := rc.Got()
		if len(got) != 1 {
			t.Fatalf("%d requests after the current instance ran, want 1", len(got))
		}
		if _, ok := testenv.VerifySVC(got[0], secret); !ok {
			t.Fatal("not signed with the endpoint's secret")
		}
	})
}
