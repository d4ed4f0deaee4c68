package testenv

import (
	"bytes"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
)

// WebhookAdapters returns the contract suites' factory for the webhooks module's ports
// on databaseURL.
func WebhookAdapters(databaseURL string) contracttest.WebhookFactory {
	return func(t *testing.T) contracttest.WebhookAdapters {
		db := MigratedDB(t, databaseURL)
		box, err := secrets.NewBox(bytes.Repeat([]byte{7}, 32))
		if err != nil {
			t.Fatalf("box: %v", err)
		}
		deliveries := sqlwebhooks.NewDeliveries(db)
		return contracttest.WebhookAdapters{Subs: sqlwebhooks.NewSubscriptions(db, box), Deliveries: deliveries, Pages: deliveries,
			Log: sqlwebhooks.NewLog(db), Dispatch: sqlwebhooks.NewDispatch(db, box), Notices: sqlwebhooks.NewNotices(db),
			Retention: sqlwebhooks.NewRetention(db), NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}

// SealedSecretAdapters returns the contract suite's factory for the webhooks module's
// port to the master key (SealedSecrets) on databaseURL.
func SealedSecretAdapters(databaseURL string) contracttest.SealedSecretFactory {
	return func(t *testing.T) contracttest.SealedSecretAdapters {
		key, other := contractBox(t, 7), contractBox(t, 8)
		db := MigratedDB(t, databaseURL)
		return contracttest.SealedSecretAdapters{Subs: sqlwebhooks.NewSubscriptions(db, key), Secrets: sqlwebhooks.NewSecrets(db),
			Key: key, Other: other, NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}

// contractBox is a secrets box whose key is 32 times b.
func contractBox(t *testing.T, b byte) *secrets.Box {
	t.Helper()
	box, err := secrets.NewBox(bytes.Repeat([]byte{b}, 32))
	if err != nil {
		t.Fatalf("box: %v", err)
	}
	return box
}
