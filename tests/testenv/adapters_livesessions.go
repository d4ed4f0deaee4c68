package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqllivesessions "github.com/creatorapi/creatorapi/adapters/sql/livesessions"
)

// LiveSessionAdapters returns the contract suites' factory for the live sessions
// module's ports on databaseURL. The courses the sessions name are real rows, written
// through their owner's adapter.
func LiveSessionAdapters(databaseURL string) contracttest.LiveSessionFactory {
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
