package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlkeys "github.com/creatorapi/creatorapi/adapters/sql/keys"
)

// KeyAdapters returns the contract suites' factory for the keys module's ports on
// databaseURL.
func KeyAdapters(databaseURL string) contracttest.KeyFactory {
	return func(t *testing.T) contracttest.KeyAdapters {
		db := MigratedDB(t, databaseURL)
		repo, usage := sqlkeys.NewRepository(db), sqlkeys.NewUsage(db)
		return contracttest.KeyAdapters{Repo: repo, Pages: repo, Usage: usage, Requests: usage,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) }}
	}
}
