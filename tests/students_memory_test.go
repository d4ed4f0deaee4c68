package tests

import (
	"context"
	"sync"
	"testing"
	"time"

	"go.uber.org/fx"

	memstudents "github.com/creatorapi/creatorapi/adapters/memory/students"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/students"
	"github.com/creatorapi/creatorapi/application/students/command"
	"github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	domainstudents "github.com/creatorapi/creatorapi/domain/students"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The student use cases on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}: courses, enrollments and students in memory): an address is unique
// among live students, concurrent creates of one address make one, edits and deletes
// free it, lists page and filter, a grant through the enrollments module touches the
// student through the published Directory and shows on its page; the students table
// stays empty, which proves the swap.
func TestStudentCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app  students.Application
		crs  courses.Application
		ens  enrollments.Application
		repo domainstudents.Repository
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &crs, &ens, &repo))
	if _, ok := repo.(memstudents.Repository); !ok {
		t.Fatalf("students.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws := env.CreateWorkspace(t, "Memory")

	// Concurrent creates of one address: one is created, all answer the same student.
	const n = 6
	results := make([]platform.Upsert[query.Student], n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = app.Commands.CreateStudent.Handle(ctx, command.CreateStudent{WorkspaceID: ws, Email: "Ada@Example.com"})
		}()
	}
	wg.Wait()
	created := 0
	for i, r := range results {
		if errs[i] != nil || r.Value.ID != results[0].Value.ID {
			t.Fatalf("create %d: %+v, %v; want %s", i, r.Value, errs[i], results[0].Value.ID)
		}
		if r.Created {
			created++
		}
	}
	if created != 1 {
		t.Fatalf("%d of %d concurrent creates of one address created a student; want 1", created, n)
	}
	ada := results[0].Value.ID

	env.Clock.Advance(time.Minute)
	grace, err := app.Commands.CreateStudent.Handle(ctx, command.CreateStudent{WorkspaceID: ws, Email: "grace@example.com", FirstName: "Grace"})
	if err != nil || !grace.Created {
		t.Fatalf("create grace: %+v, %v", grace, err)
	}
	taken := "ADA@example.com"
	_, err = app.Commands.UpdateStudent.Handle(ctx, command.UpdateStudent{WorkspaceID: ws, StudentID: grace.Value.ID, Email: &taken})
	wantInvalid(t, err, "email")

	// Lists: newest first in pages, filtered by address.
	page, err := app.Queries.ListStudents.Handle(ctx, query.ListStudents{WorkspaceID: ws, Page: platform.PageRequest{Limit: 1}})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != grace.Value.ID || !page.HasMore {
		t.Fatalf("first page: %+v, %v", page, err)
	}
	page, err = app.Queries.ListStudents.Handle(ctx, query.ListStudents{WorkspaceID: ws, Page: platform.PageRequest{Limit: 1, After: page.Next}})
	if err != nil || len(page.Items) != 1 || page.Items[0].ID != ada || page.HasMore {
		t.Fatalf("second page: %+v, %v", page, err)
	}
	byEmail, err := app.Queries.ListStudents.Handle(ctx, query.ListStudents{WorkspaceID: ws, Filter: query.Filter{Email: "GRACE@example.com"}, Page: platform.PageRequest{Limit: 5}})
	if err != nil || len(byEmail.Items) != 1 || byEmail.Items[0].ID != grace.Value.ID {
		t.Fatalf("by email: %+v, %v", byEmail, err)
	}

	// A grant through the enrollments module touches the student and shows on its page.
	course, err := crs.Commands.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: "Go"})
	if err != nil {
		t.Fatal(err)
	}
	mod, err := crs.Commands.AddModule.Handle(ctx, coursecmd.AddModule{WorkspaceID: ws, CourseID: course.ID, Title: "Basics"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := crs.Commands.AddLesson.Handle(ctx, coursecmd.AddLesson{WorkspaceID: ws, ModuleID: mod.ID, Title: "Hello", Type: "video", DurationSeconds: 60}); err != nil {
		t.Fatal(err)
	}
	if _, err := crs.Commands.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: ws, CourseID: course.ID}); err != nil {
		t.Fatal(err)
	}
	env.Clock.Advance(time.Hour)
	if _, err := ens.Commands.GrantEnrollment.Handle(ctx, enrollmentcmd.GrantEnrollment{WorkspaceID: ws, StudentID: ada, CourseID: course.ID, Source: "api"}); err != nil {
		t.Fatalf("grant: %v", err)
	}
	got, err := app.Queries.GetStudent.Handle(ctx, query.GetStudent{WorkspaceID: ws, StudentID: ada})
	if err != nil || len(got.Enrollments) != 1 || got.Enrollments[0].Progress.TotalLessons != 1 || !got.UpdatedAt.Equal(env.Clock.Now()) {
		t.Fatalf("student page after a grant: %+v, %v; want one enrollment and updatedAt %v", got, err, env.Clock.Now())
	}

	// Delete frees the address; the student no longer resolves, in lists or for grants.
	deleted, err := app.Commands.DeleteStudent.Handle(ctx, command.DeleteStudent{WorkspaceID: ws, StudentID: ada})
	if err != nil || len(deleted.Enrollments) != 1 {
		t.Fatalf("delete shows the student as last shown: %+v, %v", deleted, err)
	}
	_, err = app.Queries.GetStudent.Handle(ctx, query.GetStudent{WorkspaceID: ws, StudentID: ada})
	if !kernel.IsNotFound(err) {
		t.Fatalf("a deleted student: %v", err)
	}
	_, err = ens.Commands.GrantEnrollment.Handle(ctx, enrollmentcmd.GrantEnrollment{WorkspaceID: ws, StudentID: ada, CourseID: course.ID, Source: "api"})
	wantInvalid(t, err, "studentId")
	again, err := app.Commands.CreateStudent.Handle(ctx, command.CreateStudent{WorkspaceID: ws, Email: "ada@example.com"})
	if err != nil || !again.Created || again.Value.ID == ada {
		t.Fatalf("the address after delete: %+v, %v; want a new student", again, err)
	}
	_, err = app.Queries.GetStudent.Handle(ctx, query.GetStudent{WorkspaceID: env.CreateWorkspace(t, "Other"), StudentID: grace.Value.ID})
	if !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's student: %v", err)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT COUNT(*) FROM students`); err != nil || rows != 0 {
		t.Fatalf("student rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
