package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memlivesessions "github.com/creatorapi/creatorapi/adapters/memory/livesessions"
	sqllivesessions "github.com/creatorapi/creatorapi/adapters/sql/livesessions"
	domainlivesessions "github.com/creatorapi/creatorapi/domain/livesessions"
)

// MemoryLiveSessions swaps the live sessions module's ports for one in-memory store (one
// store, so that recordings see the sessions). One line in a test:
// testenv.Start(t, url, testenv.MemoryLiveSessions(store)).
func MemoryLiveSessions(s *memlivesessions.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domainlivesessions.Repository)))),
		fx.Replace(fx.Annotate(s.Recordings(), fx.As(new(domainlivesessions.Recordings)))),
	)
}

// LiveSessionAdapters returns the contract suites' factory for the live sessions
// module's ports on the adapter set. On the databases the courses the sessions name are
// real rows (foreign keys); in memory they are ids.
func LiveSessionAdapters(set AdapterSet, databaseURL string) contracttest.LiveSessionFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.LiveSessionAdapters {
			s := memlivesessions.New()
			return contracttest.LiveSessionAdapters{
				Repo: s.Repository(), Recordings: s.Recordings(), NewWorkspace: newWorkspaceID,
				NewCourse: func(*testing.T, string) string { return nextRef("crs") },
			}
		}
	}
	return func(t *testing.T) contracttest.LiveSessionAdapters {
		db := MigratedDB(t, databaseURL)
		return contracttest.LiveSessionAdapters{
			Repo: sqllivesessions.NewRepository(db), Recordings: sqllivesessions.NewRecordings(db),
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) },
			NewCourse: func(t *testing.T, ws string) string {
				id, _ := addContractCourse(t, db, ws, 0)
				return id
			},
		}
	}
}
