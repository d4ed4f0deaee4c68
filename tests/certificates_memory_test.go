package tests

import (
	"context"
	"testing"

	"go.uber.org/fx"

	memcertificates "github.com/creatorapi/creatorapi/adapters/memory/certificates"
	"github.com/creatorapi/creatorapi/application/certificates"
	"github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// The certificate use case on the in-memory adapters (testenv.Options{Adapters:
// testenv.Memory}: courses, enrollments and certificates in memory, students on
// SQLite): a certificate needs a completed enrollment (read through the enrollments
// module's published query, from memory), racing first issues make one certificate and
// one event, later issues answer it; the certificates table stays empty.
func TestCertificateCommandsOnMemoryAdapters(t *testing.T) {
	var (
		app   certificates.Application
		crs   courses.Application
		ens   enrollments.Application
		store command.Store
	)
	env := testenv.StartWith(t, testenv.NewSQLiteURL(t), testenv.Options{Adapters: testenv.Memory}, fx.Populate(&app, &crs, &ens, &store))
	if _, ok := store.(*memcertificates.Store); !ok {
		t.Fatalf("certificates store is %T; want the memory twin", store)
	}
	ctx := context.Background()
	ws, other := env.CreateWorkspace(t, "Memory"), env.CreateWorkspace(t, "Other")
	student := env.CreateStudent(t, ws, "ada@example.com")
	course, err := crs.Commands.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: "Go"})
	if err != nil {
		t.Fatalf("create course: %v", err)
	}
	mod, err := crs.Commands.AddModule.Handle(ctx, coursecmd.AddModule{WorkspaceID: ws, CourseID: course.ID, Title: "Basics"})
	if err != nil {
		t.Fatalf("add module: %v", err)
	}
	lesson, err := crs.Commands.AddLesson.Handle(ctx, coursecmd.AddLesson{WorkspaceID: ws, ModuleID: mod.ID, Title: "Hello", Type: "video", DurationSeconds: 60})
	if err != nil {
		t.Fatalf("add lesson: %v", err)
	}
	if _, err := crs.Commands.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: ws, CourseID: course.ID}); err != nil {
		t.Fatalf("publish: %v", err)
	}
	issue := command.IssueCertificate{WorkspaceID: ws, StudentID: student, CourseID: course.ID}
	_, err = app.Commands.IssueCertificate.Handle(ctx, issue)
	wantInvalid(t, err, "courseId") // not enrolled
	if _, err := ens.Commands.GrantEnrollment.Handle(ctx, enrollmentcmd.GrantEnrollment{WorkspaceID: ws, StudentID: student, CourseID: course.ID, Source: "api"}); err != nil {
		t.Fatalf("grant: %v", err)
	}
	_, err = app.Commands.IssueCertificate.Handle(ctx, issue)
	wantInvalid(t, err, "courseId") // not completed
	if _, err := ens.Commands.RecordProgress.Handle(ctx, enrollmentcmd.RecordProgress{WorkspaceID: ws, StudentID: student, LessonID: lesson.ID}); err != nil {
		t.Fatalf("complete: %v", err)
	}

	const n = 6
	type result struct {
		id      string
		created bool
		err     error
	}
	results := make([]result, n)
	concurrently(n, func(i int) {
		up, err := app.Commands.IssueCertificate.Handle(ctx, issue)
		results[i] = result{up.Value.ID, up.Created, err}
	})
	created := 0
	for i, r := range results {
		if r.err != nil || r.id != results[0].id {
			t.Fatalf("issue %d: %+v; want %s", i, r, results[0].id)
		}
		if r.created {
			created++
		}
	}
	if created != 1 {
		t.Fatalf("%d of %d racing issues created a certificate; want 1", created, n)
	}
	again, err := app.Commands.IssueCertificate.Handle(ctx, issue)
	if err != nil || again.Created || again.Value.ID != results[0].id || again.Value.EnrollmentID == "" {
		t.Fatalf("issue again: %+v, %v", again, err)
	}
	_, err = app.Commands.IssueCertificate.Handle(ctx, command.IssueCertificate{WorkspaceID: other, StudentID: student, CourseID: course.ID})
	wantInvalid(t, err, "studentId")

	if got := len(env.OutboxEventsOfType(t, events.CertificateIssued)); got != 1 {
		t.Fatalf("%d certificate.issued events; want 1", got)
	}
	var rows int
	if err := env.DB.Writer.GetContext(ctx, &rows, `SELECT COUNT(*) FROM certificates`); err != nil || rows != 0 {
		t.Fatalf("certificate rows in the database: %d, %v; the memory adapter should hold them all", rows, err)
	}
}
