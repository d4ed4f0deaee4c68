package testenv

import (
	"bytes"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memwebhooks "github.com/creatorapi/creatorapi/adapters/memory/webhooks"
	"github.com/creatorapi/creatorapi/adapters/secrets"
	sqlwebhooks "github.com/creatorapi/creatorapi/adapters/sql/webhooks"
	"github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/webhooks/query"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// MemoryWebhooks swaps the webhooks module's ports (endpoints, deliveries and their
// pages, the delivery log, the dispatcher's leases, notices and retention) for one
// in-memory store. One line in a test: testenv.Start(t, url, testenv.MemoryWebhooks(store)).
// The master key's port (SealedSecrets) stays on the database: the twin keeps secrets
// unsealed, so there is nothing for a rotation to re-seal.
func MemoryWebhooks(s *memwebhooks.Store) fx.Option {
	return fx.Options(
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
