package contracttest

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// EnrollmentAdapters is one implementation of the enrollments module's ports, over one
// store (what the repositories write, the read ports read).
type EnrollmentAdapters struct {
	Repo       enrollments.Repository
	Progress   enrollments.ProgressRepository
	Reads      query.ReadModel
	Published  query.Published
	References // workspaces, students and courses the enrollments name
}

// EnrollmentFactory opens a store once per suite; each case works in its own workspace.
type EnrollmentFactory func(t *testing.T) EnrollmentAdapters

// newEnrollment is an active enrollment built by the domain; its id is unique because
// the student is new to each case or the course differs.
func newEnrollment(t *testing.T, ws, student, course string, minute int) *enrollments.Enrollment {
	t.Helper()
	e, err := enrollments.New(fmt.Sprintf("enr_%s_%s_%d", student, course, minute), ws, student, course, "api", at(minute))
	if err != nil {
		t.Fatalf("new enrollment: %v", err)
	}
	return e
}

func mustEnroll(t *testing.T, a EnrollmentAdapters, e *enrollments.Enrollment) {
	t.Helper()
	added, err := a.Repo.Add(context.Background(), e)
	if err != nil || !added {
		t.Fatalf("add %s: added %v, %v", e.ID, added, err)
	}
}

// EnrollmentRepository is the contract of enrollments.Repository.
func EnrollmentRepository(t *testing.T, open EnrollmentFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a new enrollment reads back as written, by id and by pair", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		got, err := a.Repo.Get(ctx, ws, e.ID)
		if err != nil {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, e)
		}
		mustMatch(t, "Get", e, got)
		got, err = a.Repo.GetByPair(ctx, ws, e.StudentID, e.CourseID)
		if err != nil {
			t.Fatalf("GetByPair = %+v, %v; want %+v", got, err, e)
		}
		mustMatch(t, "GetByPair", e, got)
	})

	t.Run("update saves status and instants", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		if !e.Revoke(at(5)) {
			t.Fatal("an active enrollment did not revoke")
		}
		if err := a.Repo.Update(ctx, e); err != nil {
			t.Fatalf("update: %v", err)
		}
		got, err := a.Repo.Get(ctx, ws, e.ID)
		if err != nil {
			t.Fatalf("after update: %+v, %v; want %+v", got, err, e)
		}
		mustMatch(t, "after update", e, got)
	})

	t.Run("a second enrollment of the pair is not added", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		student := a.NewStudent(t, ws)
		first := newEnrollment(t, ws, student, course, 0)
		mustEnroll(t, a, first)
		added, err := a.Repo.Add(ctx, newEnrollment(t, ws, student, course, 1))
		if err != nil || added {
			t.Fatalf("second Add = %v, %v; want false, nil", added, err)
		}
		got, err := a.Repo.GetByPair(ctx, ws, student, course)
		if err != nil || got.ID != first.ID {
			t.Fatalf("pair holds %v, %v; want %s", got, err, first.ID)
		}
	})

	t.Run("another workspace's enrollment is not found", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		_, err := a.Repo.Get(ctx, other, e.ID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.GetByPair(ctx, other, e.StudentID, e.CourseID)
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Repo.Get(ctx, ws, "enr_missing")
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("concurrent identical enrollments: exactly one is added", func(t *testing.T) {
		ws := a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		student := a.NewStudent(t, ws)
		const n = 8
		candidates := make([]*enrollments.Enrollment, n)
		for i := range candidates {
			candidates[i] = newEnrollment(t, ws, student, course, i)
		}
		won := oneWinner(t, n, func(i int) (bool, error) { return a.Repo.Add(ctx, candidates[i]) })
		got, err := a.Repo.GetByPair(ctx, ws, student, course)
		if err != nil || got.ID != candidates[won].ID {
			t.Fatalf("pair holds %v, %v; want the winner %s", got, err, candidates[won].ID)
		}
	})
}

// EnrollmentProgress is the contract of enrollments.ProgressRepository.
func EnrollmentProgress(t *testing.T, open EnrollmentFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("a lesson completes once, concurrently too, and counts once", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		course, lessons := a.NewCourse(t, ws, 2)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		c := enrollments.LessonCompletion{WorkspaceID: ws, EnrollmentID: e.ID, StudentID: e.StudentID, CourseID: course,
			LessonID: lessons[0], CompletedAt: at(3)}
		const n = 6
		oneWinner(t, n, func(int) (bool, error) { return a.Progress.Add(ctx, c) })
		got, err := a.Progress.Get(ctx, ws, e.ID, lessons[0])
		if err != nil || got != c {
			t.Fatalf("Get = %+v, %v; want %+v", got, err, c)
		}
		_, err = a.Progress.Get(ctx, ws, e.ID, lessons[1])
		wantKind(t, err, kernel.KindNotFound, "")
		_, err = a.Progress.Get(ctx, other, e.ID, lessons[0])
		wantKind(t, err, kernel.KindNotFound, "")
		for _, tc := range []struct {
			ws   string
			want int
		}{{ws, 1}, {other, 0}} {
			if n, err := a.Progress.Count(ctx, tc.ws, e.ID); err != nil || n != tc.want {
				t.Fatalf("Count(%s) = %d, %v; want %d", tc.ws, n, err, tc.want)
			}
		}
	})
}

// EnrollmentReads is the contract of query.ReadModel and query.Published.
func EnrollmentReads(t *testing.T, open EnrollmentFactory) {
	a := open(t)
	ctx := context.Background()

	t.Run("find shows the enrollment in its workspace only", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		got, err := a.Reads.Find(ctx, ws, e.ID)
		if err != nil {
			t.Fatalf("Find = %+v, %v", got, err)
		}
		mustMatch(t, "Find", query.FromDomain(e), got)
		_, err = a.Reads.Find(ctx, other, e.ID)
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("student histories: oldest first with completed lessons, one call for many students", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		c1, lessons := a.NewCourse(t, ws, 3)
		c2, _ := a.NewCourse(t, ws, 1)
		s1, s2, idle := a.NewStudent(t, ws), a.NewStudent(t, ws), a.NewStudent(t, ws)
		late := newEnrollment(t, ws, s1, c1, 5)
		early := newEnrollment(t, ws, s1, c2, 1)
		tie1, tie2 := newEnrollment(t, ws, s2, c1, 2), newEnrollment(t, ws, s2, c2, 2)
		for _, e := range []*enrollments.Enrollment{late, early, tie2, tie1} {
			mustEnroll(t, a, e)
		}
		for _, l := range lessons[:2] {
			if _, err := a.Progress.Add(ctx, enrollments.LessonCompletion{WorkspaceID: ws, EnrollmentID: late.ID,
				StudentID: s1, CourseID: c1, LessonID: l, CompletedAt: at(6)}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := a.Published.OfStudents(ctx, ws, []string{s1, s2, idle})
		if err != nil {
			t.Fatalf("OfStudents: %v", err)
		}
		ids := func(fs []query.Facts) []string {
			var out []string
			for _, f := range fs {
				out = append(out, f.ID)
			}
			return out
		}
		tieOrder := []string{tie1.ID, tie2.ID}
		if tie2.ID < tie1.ID {
			tieOrder = []string{tie2.ID, tie1.ID}
		}
		if len(got) != 2 || !reflect.DeepEqual(ids(got[s1]), []string{early.ID, late.ID}) || !reflect.DeepEqual(ids(got[s2]), tieOrder) {
			t.Fatalf("OfStudents = %+v", got)
		}
		want := query.Facts{ID: late.ID, StudentID: s1, CourseID: c1, Status: "active", CreatedAt: at(5), CompletedLessons: 2}
		mustMatch(t, "facts", want, got[s1][1])
		if got, err := a.Published.OfStudents(ctx, other, []string{s1}); err != nil || len(got) != 0 {
			t.Fatalf("another workspace sees %v, %v", got, err)
		}
	})

	t.Run("a pair's enrollment, or NotFound", func(t *testing.T) {
		ws, other := a.NewWorkspace(t), a.NewWorkspace(t)
		course, _ := a.NewCourse(t, ws, 1)
		e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 0)
		mustEnroll(t, a, e)
		if !e.Revoke(at(2)) {
			t.Fatal("an active enrollment did not revoke")
		}
		if err := a.Repo.Update(ctx, e); err != nil {
			t.Fatal(err)
		}
		got, err := a.Published.OfPair(ctx, ws, e.StudentID, course)
		if err != nil || got.ID != e.ID || got.Status != "revoked" || got.RevokedAt == nil || !got.RevokedAt.Equal(at(2)) {
			t.Fatalf("OfPair = %+v, %v", got, err)
		}
		_, err = a.Published.OfPair(ctx, other, e.StudentID, course)
		wantKind(t, err, kernel.KindNotFound, "")
	})

	t.Run("first activity is the earliest enrollment or completion, any workspace", func(t *testing.T) {
		wantEarliest(t, a.Published.FirstActivity, func() time.Time {
			ws := a.NewWorkspace(t)
			course, lessons := a.NewCourse(t, ws, 1)
			e := newEnrollment(t, ws, a.NewStudent(t, ws), course, 10)
			mustEnroll(t, a, e)
			// A completion stamped before its enrollment (replayed history) still counts.
			if _, err := a.Progress.Add(ctx, enrollments.LessonCompletion{WorkspaceID: ws, EnrollmentID: e.ID,
				StudentID: e.StudentID, CourseID: course, LessonID: lessons[0], CompletedAt: at(-600)}); err != nil {
				t.Fatal(err)
			}
			return at(-600)
		})
	})
}
