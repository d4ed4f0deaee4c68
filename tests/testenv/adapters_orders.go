package testenv

import (
	"context"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memorders "github.com/creatorapi/creatorapi/adapters/memory/orders"
	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	sqlorders "github.com/creatorapi/creatorapi/adapters/sql/orders"
	"github.com/creatorapi/creatorapi/application/orders/query"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
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
			return contracttest.OrderAdapters{
				Repo: s.Repository(), Reads: s.Reads(), Published: s.Reads(), NewWorkspace: newWorkspaceID,
				NewStudent: func(*testing.T, string) string { return nextRef("stu") },
				NewCourse: func(_ *testing.T, _ string, lessons int) (string, []string) {
					ids := make([]string, lessons)
					for i := range ids {
						ids[i] = nextRef("les")
					}
					return nextRef("crs"), ids
				},
				NewEnrollment: func(_ *testing.T, _, student, course string) string { return "enr_" + student + "_" + course },
			}
		}
	}
	return func(t *testing.T) contracttest.OrderAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlorders.NewReads(db)
		enrollments := sqlenrollments.NewRepository(db)
		return contracttest.OrderAdapters{
			Repo: sqlorders.NewRepository(db), Reads: reads, Published: reads,
			NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) },
			NewStudent:   func(t *testing.T, ws string) string { return addContractStudent(t, db, ws) },
			NewCourse: func(t *testing.T, ws string, lessons int) (string, []string) {
				return addContractCourse(t, db, ws, lessons)
			},
			NewEnrollment: func(t *testing.T, ws, student, course string) string {
				t.Helper()
				ctx := context.Background()
				e, err := domainenrollments.New(nextRef("enr"), ws, student, course, "order", Epoch)
				if err != nil {
					t.Fatalf("new enrollment: %v", err)
				}
				if _, err := enrollments.Add(ctx, e); err != nil {
					t.Fatalf("add enrollment: %v", err)
				}
				stored, err := enrollments.GetByPair(ctx, ws, student, course)
				if err != nil {
					t.Fatalf("enrollment of the pair: %v", err)
				}
				return stored.ID
			},
		}
	}
}
