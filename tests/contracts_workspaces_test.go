package tests

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The workspaces module's repository and published directory meet one contract on
// memory, SQLite and PostgreSQL.
func TestContractWorkspaces(t *testing.T) {
	testenv.EachAdapterSet(t, func(t *testing.T, set testenv.AdapterSet, url string) {
		contracttest.Workspaces(t, testenv.WorkspaceAdapters(set, url))
	})
}
