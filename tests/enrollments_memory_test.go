package tests

import (
	"context"
	"testing"

	"go.uber.org/fx"

	memenrollments "github.com/creatorapi/creatorapi/adapters/memory/enrollments"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	"github.com/creatorapi/creatorapi/application/students"
	studentquery "github.com/creatorapi/creatorapi/application/students/query"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The enrollment use cases on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}: courses, enrollments and students in memory): grants are
// unique per student and course, concurrent identical grants make one, progress
// completes the enrollment, revoke and re-grant; the student's page reads them through
// the published query; the enrollment tables stay empty, which proves the swap.
func TestEnrollmentCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app  enrollments.Application
		crs  courses.Application
		stu  students.Application
		repo domainenrollments.Repository
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &crs, &stu, &repo))
	if _, ok := repo.(memenrollments.Repository); !ok {
		t.Fatalf("enrollments.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws := env.CreateWorkspace(t, "Memory")
	student := env.CreateStudent(t, ws, "ada@example.com")

	course, err := crs.Commands.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: "Go"})
	if err != nil {
		t.Fatalf("create course: %v", err)
	}
	grant := command.GrantEnrollment{WorkspaceID: ws, StudentID: student, CourseID: course.ID, Source: "api"}
	_, err = app.Commands.GrantEnrollment.Handle(ctx, grant)
	wantInvalid(t, err, "courseId") // a draft course
	mod, err := crs.Commands.AddModule.Handle(ctx, coursecmd.AddModule{WorkspaceID: ws, CourseID: course.ID, Title: "Basics"})
	if err != nil {
		t.Fatalf("add module: %v", err)
	}
	var lessons []string
	for _, title := range []string{"Hello", "Types"} {
		l, err := crs.Commands.AddLesson.Handle(ctx, coursecmd.AddLesson{WorkspaceID: ws, ModuleID: mod.ID, Title: title, Type: "video", DurationSeconds: 60})
		if err != nil {
			t.Fatalf("add lesson: %v", err)
		}
		lessons = append(lessons, l.ID)
	}
	if _, err := crs.Commands.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: ws, CourseID: course.ID}); err != nil {
		t.Fatalf("publish: %v", err)
	}

	// Concurrent identical grants: one is created, all answer the same enrollment.
	const n = 6
	results := make([]struct {
		id      string
		created bool
		err     error
	}, n)
	concurrently(n, func(i int) {
		up, err := app.Commands.GrantEnrollment.Handle(ctx, grant)
		results[i].id, results[i].created, results[i].err = up.Value.ID, up.Created, err
	})
	created := 0
	for i, r := range results {
		if r.err != nil {
			t.Fatalf("grant %d: %v", i, r.err)
		}
		if r.id != results[0].id {
			t.Fatalf("grants answered %s and %s", results[0].id, r.id)
		}
		if r.created {
			created++
		}
	}
	if created != 1 {
		t.Fatalf("%d of %d concurrent identical grants created an enrollment; want 1", created, n)
	}
	enrollmentID := results[0].id

	for i, lesson := range []string{lessons[0], lessons[0], lessons[1]} {
		up, err := app.Commands.RecordProgress.Handle(ctx, command.RecordProgress{WorkspaceID: ws, StudentID: student, LessonID: lesson})
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if up.Created == (i == 1) {
			t.Fatalf("record %d: created %v", i, up.Created)
		}
	}
	got, err := app.Queries.GetEnrollment.Handle(ctx, query.GetEnrollment{WorkspaceID: ws, EnrollmentID: enrollmentID})
	if err != nil || got.Status != "completed" || got.CompletedAt == nil {
		t.Fatalf("after every lesson: %+v, %v", got, err)
	}
	page, err := stu.Queries.GetStudent.Handle(ctx, studentquery.GetStudent{WorkspaceID: ws, StudentID: student})
	if err != nil || len(page.Enrollments) != 1 || page.Enrollments[0].Progress.Percent != 100 || page.Enrollments[0].Progress.TotalLessons != 2 {
		t.Fatalf("student page through the published query: %+v, %v", page.Enrollments, err)
	}

	if _, err := app.Commands.RevokeEnrollment.Handle(ctx, command.RevokeEnrollment{WorkspaceID: ws, EnrollmentID: enrollmentID}); err != nil {
		t.Fatalf("revoke: %v", err)
	}
	revoked, err := app.Queries.GetEnrollment.Handle(ctx, query.GetEnrollment{WorkspaceID: ws, EnrollmentID: enrollmentID})
	if err != nil || revoked.Status != "revoked" {
		t.Fatalf("after revoke: %+v, %v", revoked, err)
	}
	// Completion is a fact about the past: a re-grant brings the enrollment back completed.
	again, err := app.Commands.GrantEnrollment.Handle(ctx, grant)
	if err != nil || again.Created || again.Value.ID != enrollmentID || again.Value.Status != "completed" || again.Value.RevokedAt != nil {
		t.Fatalf("re-grant after revoke: %+v, %v; want the same enrollment reactivated, completed", again, err)
	}
	_, err = app.Queries.GetEnrollment.Handle(ctx, query.GetEnrollment{WorkspaceID: env.CreateWorkspace(t, "Other"), EnrollmentID: enrollmentID})
	if !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's enrollment: %v", err)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT (SELECT COUNT(*) FROM enrollments) + (SELECT COUNT(*) FROM lesson_progress)`); err != nil || rows != 0 {
		t.Fatalf("enrollment rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
