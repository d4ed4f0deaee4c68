package testenv

import (
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlorders "github.com/creatorapi/creatorapi/adapters/sql/orders"
)

// OrderAdapters returns the contract suites' factory for the orders module's ports on
// databaseURL. The students, courses and enrollments the orders name are real rows,
// written through their owners' adapters.
func OrderAdapters(databaseURL string) contracttest.OrderFactory {
	return func(t *testing.T) contracttest.OrderAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlorders.NewReads(db)
		return contracttest.OrderAdapters{
			Repo: sqlorders.NewRepository(db), Reads: reads, Published: reads, References: databaseReferences(db),
		}
	}
}
