package testenv

import (
	"context"
	"testing"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlcertificates "github.com/creatorapi/creatorapi/adapters/sql/certificates"
	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
)

// CertificateAdapters returns the contract suite's factory for the certificates
// module's store on databaseURL. The student, course and enrollment a certificate
// names are real rows, written through their owners' adapters.
func CertificateAdapters(databaseURL string) contracttest.CertificateFactory {
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
