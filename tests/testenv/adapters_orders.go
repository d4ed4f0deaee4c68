package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memorders "github.com/creatorapi/creatorapi/adapters/memory/orders"
	sqlorders "github.com/creatorapi/creatorapi/adapters/sql/orders"
	"github.com/creatorapi/creatorapi/application/orders/query"
	domainorders "github.com/creatorapi/creatorapi/domain/orders"
)

// MemoryOrders swaps the orders module's ports for one in-memory store (one store, so
// that the read ports see what the repository wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryOrders(store)).
func MemoryOrders(s *memorders.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domainorders.Repository)))),
		fx.Replace(fx.Annotate(s.Reads(), fx.As(new(query.ReadModel)), fx.As(new(query.Published)))),
	)
}

// OrderAdapters returns the contract suites' factory for the orders module's ports on
// the adapter set. On the databases the students, courses and enrollments the orders
// name are real rows (foreign keys); in memory they are ids.
func OrderAdapters(set AdapterSet, databaseURL string) contracttest.OrderFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.OrderAdapters {
			s := memorders.New()
			return contracttest.OrderAdapters{Repo: s.Repository(), Reads: s.Reads(), Published: s.Reads(), References: memoryReferences()}
		}
	}
	return func(t *testing.T) contracttest.OrderAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlorders.NewReads(db)
		return contracttest.OrderAdapters{
			Repo: sqlorders.NewRepository(db), Reads: reads, Published: reads, References: databaseReferences(db),
		}
	}
}
