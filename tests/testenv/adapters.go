package testenv

import (
	"context"
	"fmt"
	"github.com/creatorapi/creatorapi/adapters/clock"
	"github.com/creatorapi/creatorapi/adapters/ids"
	memaudit "github.com/creatorapi/creatorapi/adapters/memory/audit"
	memmembers "github.com/creatorapi/creatorapi/adapters/memory/members"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memanalytics "github.com/creatorapi/creatorapi/adapters/memory/analytics"
	memcertificates "github.com/creatorapi/creatorapi/adapters/memory/certificates"
	memcourses "github.com/creatorapi/creatorapi/adapters/memory/courses"
	memenrollments "github.com/creatorapi/creatorapi/adapters/memory/enrollments"
	memkeys "github.com/creatorapi/creatorapi/adapters/memory/keys"
	memlivesessions "github.com/creatorapi/creatorapi/adapters/memory/livesessions"
	memorders "github.com/creatorapi/creatorapi/adapters/memory/orders"
	memstudents "github.com/creatorapi/creatorapi/adapters/memory/students"
	memwebhooks "github.com/creatorapi/creatorapi/adapters/memory/webhooks"
	memworkspaces "github.com/creatorapi/creatorapi/adapters/memory/workspaces"
	sqlcourses "github.com/creatorapi/creatorapi/adapters/sql/courses"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/courses/query"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
)

// AdapterSet chooses the implementations behind the swappable ports.
type AdapterSet string

// The adapter sets: the databases, as in production, or the in-memory twins where a
// module has them (today workspaces, courses, enrollments, students, orders, live
// sessions, certificates, keys, members, audit, webhooks and analytics; other modules
// stay on the database). No foreign key crosses modules (migration 00017), so any subset
// can be swapped. The event pipeline's positions and ledger stay in the database: the
// analytics twin is outside the consumer's transaction, so its figures are exact only
// while no event fails or comes again (docs/architecture.md).
const (
	Databases AdapterSet = "databases"
	Memory    AdapterSet = "memory"
)

// Options choose how StartWith builds the graph.
type Options struct {
	Adapters AdapterSet
}

// StartWith boots the service like Start, with the chosen adapter set.
func StartWith(t testing.TB, databaseURL string, o Options, extra ...fx.Option) *Env {
	t.Helper()
	var opts []fx.Option
	if o.Adapters == Memory {
		opts = append(opts, MemoryCourses(memcourses.New()), MemoryEnrollments(memenrollments.New()),
			MemoryLiveSessions(memlivesessions.New()), MemoryCertificates(memcertificates.New()), MemoryKeys(memkeys.New()),
			MemoryStudents(memstudents.New()), MemoryOrders(memorders.New()),
			MemoryMembers(memmembers.New()), MemoryAudit(memaudit.New(ids.NewULIDs(clock.System{}), clock.System{})),
			MemoryWorkspaces(memworkspaces.New()), MemoryWebhooks(memwebhooks.New()), MemoryAnalytics(memanalytics.New()))
	}
	return Start(t, databaseURL, append(opts, extra...)...)
}

// MemoryCourses swaps the courses module's three ports for one in-memory store (one
// store, so that the read ports see what the repository wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryCourses(store)).
func MemoryCourses(s *memcourses.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domaincourses.Repository)))),
		fx.Replace(fx.Annotate(s.Reads(), fx.As(new(query.ReadModel)))),
		fx.Replace(fx.Annotate(s.Catalog(), fx.As(new(query.Catalog)))),
	)
}

// EachAdapterSet runs fn on the in-memory twins, then on SQLite and PostgreSQL
// (databaseURL is empty for memory). Contract suites run through it.
func EachAdapterSet(t *testing.T, fn func(t *testing.T, set AdapterSet, databaseURL string)) {
	t.Run(string(Memory), func(t *testing.T) { fn(t, Memory, "") })
	EachDatabase(t, func(t *testing.T, databaseURL string) { fn(t, Databases, databaseURL) })
}

// CourseAdapters returns the contract suites' factory for the courses module's
// ports on the adapter set.
func CourseAdapters(set AdapterSet, databaseURL string) contracttest.CourseFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.CourseAdapters {
			s := memcourses.New()
			return contracttest.CourseAdapters{Repo: s.Repository(), Reads: s.Reads(), Catalog: s.Catalog(), References: memoryReferences()}
		}
	}
	return func(t *testing.T) contracttest.CourseAdapters {
		db := MigratedDB(t, databaseURL)
		return contracttest.CourseAdapters{
			Repo: sqlcourses.NewRepository(db), Reads: sqlcourses.NewReads(db), Catalog: sqlcourses.NewCatalog(db),
			References: databaseReferences(db),
		}
	}
}

var workspaceSeq atomic.Int64

func newWorkspaceID(*testing.T) string {
	return fmt.Sprintf("ws_contract_%d_%d", time.Now().UnixNano(), workspaceSeq.Add(1))
}

// MigratedDB opens databaseURL, migrates it, and closes it at cleanup.
func MigratedDB(t testing.TB, databaseURL string) *sqldb.DB {
	t.Helper()
	ctx := context.Background()
	db, err := sqldb.Open(ctx, databaseURL, t.TempDir())
	if err != nil {
		t.Fatalf("open %s: %v", databaseURL, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}

// Contract runs a contract suite on every adapter set (EachAdapterSet), each run with
// the implementation the module's factory opens: one line per suite in a test,
// testenv.Contract(t, testenv.CourseAdapters, contracttest.CourseRepository).
func Contract[F any](t *testing.T, factory func(AdapterSet, string) F, suite func(*testing.T, F)) {
	t.Helper()
	EachAdapterSet(t, func(t *testing.T, set AdapterSet, url string) { suite(t, factory(set, url)) })
}
