package testenv

import (
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memstudents "github.com/creatorapi/creatorapi/adapters/memory/students"
	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
	"github.com/creatorapi/creatorapi/application/students/query"
	domainstudents "github.com/creatorapi/creatorapi/domain/students"
)

// MemoryStudents swaps the students module's ports for one in-memory store (one store,
// so that the read ports see what the repository wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryStudents(store)).
func MemoryStudents(s *memstudents.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domainstudents.Repository)))),
		fx.Replace(fx.Annotate(s.Reads(), fx.As(new(query.ReadModel)), fx.As(new(query.Published)))),
	)
}

// StudentAdapters returns the contract suites' factory for the students module's ports
// on the adapter set.
func StudentAdapters(set AdapterSet, databaseURL string) contracttest.StudentFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.StudentAdapters {
			s := memstudents.New()
			return contracttest.StudentAdapters{Repo: s.Repository(), Reads: s.Reads(), Published: s.Reads(), References: memoryReferences()}
		}
	}
	return func(t *testing.T) contracttest.StudentAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlstudents.NewReads(db)
		return contracttest.StudentAdapters{
			Repo: sqlstudents.NewRepository(db), Reads: reads, Published: reads, References: databaseReferences(db),
		}
	}
}
