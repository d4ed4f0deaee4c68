package testenv

import (
	"bytes"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memwebhooks "github.com/creatorapi/creatorapi/adapters/memory/webhooks"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// MemoryWebhooks swaps the webhooks module's ports (endpoints, deliveries and their
// pages, the delivery log, the dispatcher's leases, notices and retention) for one
// in-memory store. One line in a test: testenv.Start(t, url, testenv.MemoryWebhooks(store)).
// The twin seals the secrets with the service's box and publishes them to the master key
// (SealedSecrets), so a rotation re-seals what it holds.
func MemoryWebhooks(s *memwebhooks.Store) fx.Option {
	return fx.Options(
		fx.Invoke(func(box *secrets.Box) error { return s.SealWith(box) }),
		fx.Replace(fx.Annotate(s.Secrets(), fx.As(new(webhooks.SealedSecrets)))),
		fx.Replace(fx.Annotate(s.Subscriptions(), fx.As(new(domainwebhooks.Repository)))),
		fx.Replace(fx.Annotate(s.Deliveries(), fx.As(new(domainwebhooks.Deliveries)), fx.As(new(query.DeliveryPages)))),
		fx.Replace(fx.Annotate(s.Log(), fx.As(new(query.DeliveryLog)))),
		fx.Replace(fx.Annotate(s.Dispatch(), fx.As(new(domainwebhooks.Dispatch)))),
		fx.Replace(fx.Annotate(s.Notices(), fx.As(new(domainwebhooks.Notices)))),
		fx.Replace(fx.Annotate(s.Retention(), fx.As(new(command.Retention)))),
	)
}

// WebhookAdapters returns the contract suites' factory for the webhooks module's ports
// on the adapter set.
func WebhookAdapters(set AdapterSet, databaseURL string) contracttest.WebhookFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.WebhookAdapters {
			s := memwebhooks.New()
			return contracttest.WebhookAdapters{Subs: s.Subscriptions(), Deliveries: s.Deliveries(), Pages: s.Deliveries(), Log: s.Log(),
				Dispatch: s.Dispatch(), Notices: s.Notices(), Retention: s.Retention(), NewWorkspace: newWorkspaceID}
		}
	}
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
// port to the master key (SealedSecrets) on the adapter set: the memory twin seals with
// the same box as the SQL one.
func SealedSecretAdapters(set AdapterSet, databaseURL string) contracttest.SealedSecretFactory {
	return func(t *testing.T) contracttest.SealedSecretAdapters {
		key, other := contractBox(t, 7), contractBox(t, 8)
		if set == Memory {
			s := memwebhooks.New()
			if err := s.SealWith(key); err != nil {
				t.Fatal(err)
			}
			return contracttest.SealedSecretAdapters{Subs: s.Subscriptions(), Secrets: s.Secrets(), Key: key, Other: other,
				NewWorkspace: newWorkspaceID}
		}
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
