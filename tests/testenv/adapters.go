package testenv

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlcourses "github.com/creatorapi/creatorapi/adapters/sql/courses"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
)

// CourseAdapters returns the contract suites' factory for the courses module's ports on
// databaseURL.
func CourseAdapters(databaseURL string) contracttest.CourseFactory {
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

// Contract runs a contract suite on SQLite and PostgreSQL (EachDatabase), each run with
// the adapters the module's factory opens: one line per suite in a test,
// testenv.Contract(t, testenv.CourseAdapters, contracttest.CourseRepository).
func Contract[F any](t *testing.T, factory func(databaseURL string) F, suite func(*testing.T, F)) {
	t.Helper()
	EachDatabase(t, func(t *testing.T, url string) { suite(t, factory(url)) })
}
