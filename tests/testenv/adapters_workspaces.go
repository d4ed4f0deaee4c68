package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlworkspaces "github.com/creatorapi/creatorapi/adapters/sql/workspaces"
)

// WorkspaceAdapters returns the contract suite's factory on databaseURL.
func WorkspaceAdapters(databaseURL string) contracttest.WorkspaceFactory {
	return func(t *testing.T) contracttest.WorkspaceAdapters {
		s := sqlworkspaces.NewStore(MigratedDB(t, databaseURL))
		return contracttest.WorkspaceAdapters{Repo: s, Directory: s}
	}
}
