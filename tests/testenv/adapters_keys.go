package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memkeys "github.com/creatorapi/creatorapi/adapters/memory/keys"
	sqlkeys "github.com/creatorapi/creatorapi/adapters/sql/keys"
	"github.com/creatorapi/creatorapi/application/keys/query"
	domainkeys "github.com/creatorapi/creatorapi/domain/keys"
)

// MemoryKeys swaps the keys module's ports for one in-memory store (one store, so that
// pages, usage and counts see the keys the repository wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryKeys(store)).
func MemoryKeys(s *memkeys.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domainkeys.Repository)), fx.As(new(query.KeyPages)))),
		fx.Replace(fx.Annotate(s.Usage(), fx.As(new(query.UsageStore)), fx.As(new(query.RequestCounts)))),
	)
}

// KeyAdapters returns the contract suites' factory for the keys module's ports on the
// adapter set.
func KeyAdapters(set AdapterSet, databaseURL string) contracttest.KeyFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.KeyAdapters {
			s := memkeys.New()
			return contracttest.KeyAdapters{Repo: s.Repository(), Pages: s.Repository(), Usage: s.Usage(), Requests: s.Usage(),
				NewWorkspace: newWorkspaceID}
		}
	}
	return func(t *testing.T) contracttest.KeyAdapters {
		db := MigratedDB(t, databaseURL)
		repo, usage := sqlkeys.NewRepository(db), sqlkeys.NewUsage(db)
		return contracttest.KeyAdapters{Repo: repo, Pages: repo, Usage: usage, Requests: usage,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}
