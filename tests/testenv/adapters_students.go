package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
)

// StudentAdapters returns the contract suites' factory for the students module's ports
// on databaseURL.
func StudentAdapters(databaseURL string) contracttest.StudentFactory {
	return func(t *testing.T) contracttest.StudentAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlstudents.NewReads(db)
		return contracttest.StudentAdapters{
			Repo: sqlstudents.NewRepository(db), Reads: reads, Published: reads, References: databaseReferences(db),
		}
	}
}
