package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlanalytics "github.com/creatorapi/creatorapi/adapters/sql/analytics"
)

// AnalyticsAdapters returns the contract suites' factory for the analytics module's
// ports on databaseURL. The read model has no foreign keys: workspaces are ids.
func AnalyticsAdapters(databaseURL string) contracttest.AnalyticsFactory {
	return func(t *testing.T) contracttest.AnalyticsAdapters {
		db := MigratedDB(t, databaseURL)
		p, s := sqlanalytics.NewProjection(db), sqlanalytics.NewSummary(db)
		return contracttest.AnalyticsAdapters{Projection: p, Reset: p, Summary: s, Daily: s, NewWorkspace: newWorkspaceID}
	}
}
