package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memworkspaces "github.com/creatorapi/creatorapi/adapters/memory/workspaces"
	sqlworkspaces "github.com/creatorapi/creatorapi/adapters/sql/workspaces"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	domainworkspaces "github.com/creatorapi/creatorapi/domain/workspaces"
)

// MemoryWorkspaces swaps the workspaces module's ports for one in-memory store.
func MemoryWorkspaces(s *memworkspaces.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s, fx.As(new(domainworkspaces.Repository)))),
		fx.Replace(fx.Annotate(s, fx.As(new(query.Directory)))),
	)
}

// WorkspaceAdapters returns the contract suite's factory on the adapter set.
func WorkspaceAdapters(set AdapterSet, databaseURL string) contracttest.WorkspaceFactory {
	return func(t *testing.T) contracttest.WorkspaceAdapters {
		if set == Memory {
			s := memworkspaces.New()
			return contracttest.WorkspaceAdapters{Repo: s, Directory: s}
		}
		s := sqlworkspaces.NewStore(MigratedDB(t, databaseURL))
		return contracttest.WorkspaceAdapters{Repo: s, Directory: s}
	}
}
