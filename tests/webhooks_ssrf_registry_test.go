package tests

import (
	"strings"
	"testing"

	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Through the whole service: endpoints whose address carries 169.254.169.254 (NAT64,
// local-use NAT64, 6to4, Teredo, IPv4-compatible) are never dialled; each delivery fails
// at once, refused, and the attempt log does not show the address.
func TestWebhooksNeverDialAddressesEmbeddingTheMetadataAddress(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, dbURL string) {
		env := testenv.StartWebhooks(t, dbURL, func(c *compose.Config) { c.WebhookAllowPrivate = false })
		ws := env.CreateWorkspace(t, "Academy")
		var ids []string
		for _, host := range []string{"[64:ff9b::a9fe:a9fe]", "[64:ff9b:1::a9fe:a9fe]", "[2002:a9fe:a9fe::1]",
			"[2001:0:4136:e378:8000:63bf:5601:5601]", "[::169.254.169.254]", "[::ffff:169.254.169.254]"} {
			id, _ := env.CreateWebhook(t, ws, "https://"+host+"/latest/meta-data/", "course.published")
			ids = append(ids, id)
		}
		fanOut(t, env, syntheticEvents(ws, 1)...)
		env.RunDue(t)
		for _, id := range ids {
			ds := env.WebhookDeliveries(t, ws, id)
			if len(ds) != 1 || ds[0].Status != "failed" || len(ds[0].AttemptLog) != 1 || ds[0].AttemptLog[0].Error == nil {
				t.Fatalf("endpoint %s: %+v, want one refused attempt", id, ds)
			}
			msg := *ds[0].AttemptLog[0].Error
			if !strings.Contains(msg, "refused") || strings.Contains(msg, "169.254.169.254") || strings.Contains(msg, "a9fe") {
				t.Fatalf("endpoint %s: attempt error %q, want a refusal without the address", id, msg)
			}
		}
	})
}
