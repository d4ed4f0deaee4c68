package tests

import (
	"context"
	"testing"

	"go.uber.org/fx"

	memcourses "github.com/creatorapi/creatorapi/adapters/memory/courses"
	"github.com/creatorapi/creatorapi/application/courses"
	"github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/courses/query"
	domaincourses "github.com/creatorapi/creatorapi/domain/courses"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The course use cases on the in-memory adapters: the whole graph with the courses
// module's ports swapped (testenv.Options{Adapters: testenv.Memory}); the course tables
// stay empty, which proves the swap reached every port.
func TestCourseCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app  courses.Application
		repo domaincourses.Repository
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &repo))
	if _, ok := repo.(memcourses.Repository); !ok {
		t.Fatalf("courses.Repository is %T; want the memory twin", repo)
	}
	ctx := context.Background()
	ws := env.CreateWorkspace(t, "Memory")

	first, err := app.Commands.CreateCourse.Handle(ctx, command.CreateCourse{WorkspaceID: ws, Title: "Intro to Go"})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	second, err := app.Commands.CreateCourse.Handle(ctx, command.CreateCourse{WorkspaceID: ws, Title: "Intro to Go"})
	if err != nil {
		t.Fatalf("create again: %v", err)
	}
	if first.Slug != "intro-to-go" || second.Slug != "intro-to-go-2" {
		t.Fatalf("derived slugs %q, %q", first.Slug, second.Slug)
	}
	_, err = app.Commands.CreateCourse.Handle(ctx, command.CreateCourse{WorkspaceID: ws, Title: "Other", Slug: "intro-to-go"})
	wantInvalid(t, err, "slug")

	mod, err := app.Commands.AddModule.Handle(ctx, command.AddModule{WorkspaceID: ws, CourseID: first.ID, Title: "Basics"})
	if err != nil {
		t.Fatalf("add module: %v", err)
	}
	for _, title := range []string{"Hello", "Types"} {
		if _, err := app.Commands.AddLesson.Handle(ctx, command.AddLesson{WorkspaceID: ws, ModuleID: mod.ID, Title: title, Type: "video", DurationSeconds: 90}); err != nil {
			t.Fatalf("add lesson: %v", err)
		}
	}
	published, err := app.Commands.PublishCourse.Handle(ctx, command.PublishCourse{WorkspaceID: ws, CourseID: first.ID})
	if err != nil {
		t.Fatalf("publish: %v", err)
	}
	if published.LessonCount != 2 || published.Modules[0].Lessons[1].Position != 2 {
		t.Fatalf("published %+v", published)
	}
	got, err := app.Queries.GetCourse.Handle(ctx, query.GetCourse{WorkspaceID: ws, CourseID: first.ID})
	if err != nil || got.Status != "published" || len(got.Modules[0].Lessons) != 2 {
		t.Fatalf("get: %+v, %v", got, err)
	}
	facts, err := app.Queries.FindCourses.Handle(ctx, query.FindCourses{WorkspaceID: ws, IDs: []string{first.ID, second.ID}})
	if err != nil || !facts[first.ID].Published() || facts[second.ID].Published() || facts[first.ID].LessonCount != 2 {
		t.Fatalf("facts %+v, %v", facts, err)
	}
	if _, err := app.Commands.ArchiveCourse.Handle(ctx, command.ArchiveCourse{WorkspaceID: ws, CourseID: first.ID}); err != nil {
		t.Fatalf("archive: %v", err)
	}
	_, err = app.Commands.AddModule.Handle(ctx, command.AddModule{WorkspaceID: ws, CourseID: first.ID, Title: "Late"})
	wantInvalid(t, err, "courseId")
	_, err = app.Commands.AddModule.Handle(ctx, command.AddModule{WorkspaceID: env.CreateWorkspace(t, "Other"), CourseID: first.ID, Title: "X"})
	if !kernel.IsNotFound(err) {
		t.Fatalf("another workspace's course: %v", err)
	}

	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT COUNT(*) FROM courses`); err != nil || rows != 0 {
		t.Fatalf("course rows in the database: %d, %v; the memory adapters should hold them all", rows, err)
	}
}
