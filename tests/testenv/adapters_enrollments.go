package testenv

import (
	"context"
	"fmt"
	sqlworkspaces "github.com/creatorapi/creatorapi/adapters/sql/workspaces"
	"strings"
	"sync/atomic"
	"testing"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/contracttest"
	memenrollments "github.com/creatorapi/creatorapi/adapters/memory/enrollments"
	sqlcourses "github.com/creatorapi/creatorapi/adapters/sql/courses"
	sqlenrollments "github.com/creatorapi/creatorapi/adapters/sql/enrollments"
	sqlstudents "github.com/creatorapi/creatorapi/adapters/sql/students"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/students"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// MemoryEnrollments swaps the enrollments module's ports for one in-memory store (one
// store, so that the read ports see what the repositories wrote). One line in a test:
// testenv.Start(t, url, testenv.MemoryEnrollments(store)).
func MemoryEnrollments(s *memenrollments.Store) fx.Option {
	return fx.Options(
		fx.Replace(fx.Annotate(s.Repository(), fx.As(new(domainenrollments.Repository)))),
		fx.Replace(fx.Annotate(s.Progress(), fx.As(new(domainenrollments.ProgressRepository)))),
		fx.Replace(fx.Annotate(s.Reads(), fx.As(new(query.ReadModel)), fx.As(new(query.Published)))),
	)
}

var referenceSeq atomic.Int64

// nextRef returns a process-unique id with prefix (students and courses ids are global keys).
func nextRef(prefix string) string {
	return fmt.Sprintf("%s_contract_%d", prefix, referenceSeq.Add(1))
}

// EnrollmentAdapters returns the contract suites' factory for the enrollments module's
// ports on the adapter set. On the databases the students and courses the enrollments
// name are real rows (foreign keys); in memory they are ids.
func EnrollmentAdapters(set AdapterSet, databaseURL string) contracttest.EnrollmentFactory {
	if set == Memory {
		return func(t *testing.T) contracttest.EnrollmentAdapters {
			s := memenrollments.New()
			return contracttest.EnrollmentAdapters{Repo: s.Repository(), Progress: s.Progress(), Reads: s.Reads(), Published: s.Reads(),
				References: memoryReferences()}
		}
	}
	return func(t *testing.T) contracttest.EnrollmentAdapters {
		db := MigratedDB(t, databaseURL)
		reads := sqlenrollments.NewReads(db)
		return contracttest.EnrollmentAdapters{
			Repo: sqlenrollments.NewRepository(db), Progress: sqlenrollments.NewProgress(db), Reads: reads, Published: reads,
			References: databaseReferences(db),
		}
	}
}

// memoryReferences are plain ids: the memory twins check no foreign keys.
func memoryReferences() contracttest.References {
	return contracttest.References{
		NewWorkspace: newWorkspaceID,
		NewStudent:   func(*testing.T, string) string { return nextRef("stu") },
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
