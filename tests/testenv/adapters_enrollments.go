package testenv

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	sqlworkspaces "github.com/creatorapi/creatorapi/adapters/sql/workspaces"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	sqlcourses "github.com/creatorapi/creatorapi/adapters/sql/courses"
	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/students"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

var referenceSeq atomic.Int64

// nextRef returns a process-unique id with prefix (students and courses ids are global keys).
func nextRef(prefix string) string {
	return fmt.Sprintf("%s_contract_%d", prefix, referenceSeq.Add(1))
}

// EnrollmentAdapters returns the contract suites' factory for the enrollments module's
// ports on databaseURL. The students and courses the enrollments name are real rows,
// written through their owners' adapters.
func EnrollmentAdapters(databaseURL string) contracttest.EnrollmentFactory {
	return func(t *testing.T) contracttest.EnrollmentAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlenrollments.NewReads(db)
		return contracttest.EnrollmentAdapters{
			Repo: sqlenrollments.NewRepository(db), Progress: sqlenrollments.NewProgress(db), Reads: reads, Published: reads,
			References: databaseReferences(db),
		}
	}
}

// databaseReferences are real rows, written through the owning modules' adapters.
func databaseReferences(db *sqldb.DB) contracttest.References {
	return contracttest.References{
		NewWorkspace: func(t *testing.T) string { return addContractWorkspace(t, db) },
		NewStudent:   func(t *testing.T, ws string) string { return addContractStudent(t, db, ws) },
		NewCourse: func(t *testing.T, ws string, lessons int) (string, []string) {
			return addContractCourse(t, db, ws, lessons)
		},
		NewEnrollment: func(t *testing.T, ws, student, course string) string {
			return addContractEnrollment(t, db, ws, student, course)
		},
	}
}

// addContractEnrollment enrolls student in course, or finds the pair's enrollment.
func addContractEnrollment(t *testing.T, db *sqldb.DB, ws, student, course string) string {
	t.Helper()
	ctx := context.Background()
	repo := sqlenrollments.NewRepository(db)
	e, err := domainenrollments.New(nextRef("enr"), ws, student, course, "order", Epoch)
	if err != nil {
		t.Fatalf("new enrollment: %v", err)
	}
	if _, err := repo.Add(ctx, e); err != nil {
		t.Fatalf("add enrollment: %v", err)
	}
	stored, err := repo.GetByPair(ctx, ws, student, course)
	if err != nil {
		t.Fatalf("enrollment of the pair: %v", err)
	}
	return stored.ID
}

func addContractWorkspace(t *testing.T, db *sqldb.DB) string {
	t.Helper()
	id := newWorkspaceID(t)
	w := &workspaces.Workspace{ID: id, Name: id, OwnerEmail: "owner@example.com", CreatedAt: Epoch}
	if err := sqlworkspaces.NewStore(db).Add(context.Background(), w); err != nil {
		t.Fatalf("add workspace: %v", err)
	}
	return id
}

func addContractStudent(t *testing.T, db *sqldb.DB, ws string) string {
	t.Helper()
	id := nextRef("stu")
	s, err := students.New(id, ws, students.Profile{Email: id + "@example.com"}, Epoch)
	if err != nil {
		t.Fatalf("new student: %v", err)
	}
	if _, err := sqlstudents.NewRepository(db).Add(context.Background(), s); err != nil {
		t.Fatalf("add student: %v", err)
	}
	return id
}

func addContractCourse(t *testing.T, db *sqldb.DB, ws string, lessons int) (string, []string) {
	t.Helper()
	id := nextRef("crs")
	c, err := domaincourses.New(id, ws, "Course "+id, strings.ReplaceAll(id, "_", "-"), "", Epoch)
	if err != nil {
		t.Fatalf("new course: %v", err)
	}
	repo := sqlcourses.NewRepository(db)
	if err := repo.Add(context.Background(), c); err != nil {
		t.Fatalf("add course: %v", err)
	}
	mod, err := c.AddModule(nextRef("mod"), "Module", Epoch)
	if err != nil {
		t.Fatalf("add module: %v", err)
	}
	ids := make([]string, lessons)
	for i := range ids {
		ids[i] = nextRef("les")
		if _, err := c.AddLesson(mod.ID, domaincourses.LessonDraft{ID: ids[i], Title: "Lesson", Type: "video", DurationSeconds: 60}, Epoch); err != nil {
			t.Fatalf("add lesson: %v", err)
		}
	}
	if err := repo.Update(context.Background(), c); err != nil {
		t.Fatalf("save curriculum: %v", err)
	}
	return id, ids
}
