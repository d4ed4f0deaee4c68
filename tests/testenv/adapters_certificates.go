package testenv

import (
	"context"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memcertificates "github.com/creatorapi/creatorapi/adapters/memory/certificates"
	sqlcertificates "github.com/creatorapi/creatorapi/adapters/sql/certificates"
	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/certificates/command"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
)

// MemoryCertificates swaps the certificates module's store for an in-memory one. One
// line in a test: testenv.Start(t, url, testenv.MemoryCertificates(store)).
func MemoryCertificates(s *memcertificates.Store) fx.Option {
	return fx.Replace(fx.Annotate(s, fx.As(new(command.Store))))
}

// CertificateAdapters returns the contract suite's factory for the certificates
// module's store on the adapter set. On the databases the student, course and
// enrollment a certificate names are real rows (foreign keys); in memory they are ids.
func CertificateAdapters(set AdapterSet, databaseURL string) contracttest.CertificateFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.CertificateAdapters {
			return contracttest.CertificateAdapters{
				Store: memcertificates.New(), NewWorkspace: newWorkspaceID,
				NewCompletion: func(*testing.T, string) (string, string, string) {
					return nextRef("stu"), nextRef("crs"), nextRef("enr")
				},
			}
		}
	}
	return func(t *testing.T) contracttest.CertificateAdapters {
		db := MigratedDB(t, databaseURL)
		return contracttest.CertificateAdapters{
			Store:         sqlcertificates.NewRepository(db),
			NewWorkspace:  func(t *testing.T) string { return addContractWorkspace(t, db) },
			NewCompletion: func(t *testing.T, ws string) (string, string, string) { return addContractCompletion(t, db, ws) },
		}
	}
}

// addContractCompletion stores a student, a course and a completed enrollment of the
// student in it, through their owners' adapters.
func addContractCompletion(t *testing.T, db *sqldb.DB, ws string) (student, course, enrollment string) {
	t.Helper()
	student = addContractStudent(t, db, ws)
	course, _ = addContractCourse(t, db, ws, 0)
	e, err := domainenrollments.New(nextRef("enr"), ws, student, course, "api", Epoch)
	if err != nil {
		t.Fatalf("new enrollment: %v", err)
	}
	if added, err := sqlenrollments.NewRepository(db).Add(context.Background(), e); err != nil || !added {
		t.Fatalf("add enrollment: %v, %v", added, err)
	}
	return student, course, e.ID
}
