package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memanalytics "github.com/creatorapi/creatorapi/adapters/memory/analytics"
	sqlanalytics "github.com/creatorapi/creatorapi/adapters/sql/analytics"
	"github.com/creatorapi/creatorapi/application/analytics/command"
	"github.com/creatorapi/creatorapi/application/analytics/query"
)

// MemoryAnalytics swaps the analytics module's ports for one in-memory store (one store,
// so that the summary reads what the projection wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryAnalytics(store)). The projection consumer's
// position and ledger stay in the database; the store is outside its transaction.
func MemoryAnalytics(s *memanalytics.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Projection(), fx.As(new(command.Projection)), fx.As(new(command.Resetter)))),
		fx.Replace(fx.Annotate(s.Summary(), fx.As(new(query.ReadModel)), fx.As(new(query.DailyReadModel)))),
	)
}

// AnalyticsAdapters returns the contract suites' factory for the analytics module's
// ports on the adapter set. The read model has no foreign keys: workspaces are ids.
func AnalyticsAdapters(set AdapterSet, databaseURL string) contracttest.AnalyticsFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.AnalyticsAdapters {
			s := memanalytics.New()
			return contracttest.AnalyticsAdapters{Projection: s.Projection(), Reset: s.Projection(), Summary: s.Summary(), Daily: s.Summary(),
				NewWorkspace: newWorkspaceID}
		}
	}
	return func(t *testing.T) contracttest.AnalyticsAdapters {
		db := MigratedDB(t, databaseURL)
		p, s := sqlanalytics.NewProjection(db), sqlanalytics.NewSummary(db)
		return contracttest.AnalyticsAdapters{Projection: p, Reset: p, Summary: s, Daily: s, NewWorkspace: newWorkspaceID}
	}
}
