package tests

import (
	"context"
	"net/http"
	"testing"

	"go.uber.org/fx"

	memcourses "github.com/creatorapi/creatorapi/adapters/memory/courses"
	memstudents "github.com/creatorapi/creatorapi/adapters/memory/students"
	memworkspaces "github.com/creatorapi/creatorapi/adapters/memory/workspaces"
	"github.com/creatorapi/creatorapi/application/certificates"
	certcmd "github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/livesessions"
	livecmd "github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/tests/testenv"
)

// Any subset of modules runs on the memory twins (migration 00017 dropped the foreign
// keys between modules' tables): workspaces, courses and students in memory, the modules
// that name them (keys, enrollments, orders, live sessions, certificates) on the
// database. The use cases check every reference through the owners' published ports, so
// a live session is scheduled for a memory course, an order grants an enrollment,
// lessons are completed and a certificate is issued, all stored on the database with the
// memory ids, and unknown references are still refused.
func TestMixedAdapterSetsReferenceAcrossModules(t *testing.T) {
	testenv.EachDatabase(t, func(t *testing.T, url string) {
		var (
			live  livesessions.Application
			certs certificates.Application
		)
		env := testenv.Start(t, url, testenv.MemoryWorkspaces(memworkspaces.New()), testenv.MemoryCourses(memcourses.New()),
			testenv.MemoryStudents(memstudents.New()), fx.Populate(&live, &certs))
		ctx := context.Background()
		ws, other := env.CreateWorkspace(t, "Mixed"), env.CreateWorkspace(t, "Other")
		course := env.CreatePublishedCourse(t, ws, "Go")
		student := env.CreateStudent(t, ws, "ada@example.com")

		// A live session on the database for a course in memory; the course is checked.
		s, err := live.Commands.ScheduleSession.Handle(ctx, livecmd.ScheduleSession{WorkspaceID: ws, CourseID: course, Title: "Q&A"})
		if err != nil || s.CourseID != course {
			t.Fatalf("schedule for the memory course: %+v, %v", s, err)
		}
		_, err = live.Commands.ScheduleSession.Handle(ctx, livecmd.ScheduleSession{WorkspaceID: other, CourseID: course, Title: "Q&A"})
		wantInvalid(t, err, "courseId")
		_, err = live.Commands.ScheduleSession.Handle(ctx, livecmd.ScheduleSession{WorkspaceID: ws, CourseID: "crs_missing", Title: "Q&A"})
		wantInvalid(t, err, "courseId")

		// An order (database) of the memory student and course grants an enrollment (database).
		order := env.PlaceOrder(t, ws, student, "eur", testenv.OrderItem{CourseID: course, Amount: 4900})
		if len(order.Entitlements) != 1 || order.Items[0].Title != "Go" {
			t.Fatalf("order: %+v", order)
		}
		wantRefused(t, env.PostOrder(t, ws, "stu_missing", "eur", testenv.OrderItem{CourseID: course, Amount: 1}), "studentId")
		wantRefused(t, env.PostOrder(t, ws, student, "eur", testenv.OrderItem{CourseID: "crs_missing", Amount: 1}), "items[0].courseId")

		// Progress on the memory lessons completes the enrollment; the certificate follows.
		issue := certcmd.IssueCertificate{WorkspaceID: ws, StudentID: student, CourseID: course}
		_, err = certs.Commands.IssueCertificate.Handle(ctx, issue)
		wantInvalid(t, err, "courseId") // not completed yet
		env.CompleteCourse(t, ws, student, course)
		wantRefused(t, env.CompleteLesson(t, ws, student, "les_missing"), "lessonId")
		cert, err := certs.Commands.IssueCertificate.Handle(ctx, issue)
		if err != nil || !cert.Created || cert.Value.EnrollmentID != order.Entitlements[0].EnrollmentID {
			t.Fatalf("certificate: %+v, %v; want one for enrollment %s", cert, err, order.Entitlements[0].EnrollmentID)
		}
		_, err = certs.Commands.IssueCertificate.Handle(ctx, certcmd.IssueCertificate{WorkspaceID: ws, StudentID: "stu_missing", CourseID: course})
		wantInvalid(t, err, "studentId")

		// A key on the database authenticates in the memory workspace; the student's page
		// composes the memory student, the database enrollment and the memory lesson count.
		var page struct {
			Data []struct {
				ID          string
				Enrollments []struct {
					CourseID string
					Status   string
					Progress struct{ CompletedLessons, TotalLessons, Percent int }
				}
			}
		}
		env.API(env.LearningKey(t, ws)).Get(t, "/api/v1/students?email=ada%40example.com").Expect(t, http.StatusOK).Decode(t, &page)
		if len(page.Data) != 1 || page.Data[0].ID != student || len(page.Data[0].Enrollments) != 1 {
			t.Fatalf("students page: %+v", page)
		}
		if e := page.Data[0].Enrollments[0]; e.CourseID != course || e.Status != "completed" || e.Progress.Percent != 100 || e.Progress.TotalLessons != 2 {
			t.Fatalf("the student's enrollment: %+v", e)
		}

		// Where each row went: the database holds what its modules wrote, with the memory ids.
		for table, want := range map[string]int{
			"workspaces": 0, "courses": 0, "lessons": 0, "students": 0,
			"api_keys": 1, "live_sessions": 1, "orders": 1, "order_items": 1, "order_entitlements": 1,
			"enrollments": 1, "lesson_progress": 2, "certificates": 1,
		} {
			var got int
			if err := env.DB.Writer.GetContext(ctx, &got, `SELECT COUNT(*) FROM `+table); err != nil || got != want {
				t.Errorf("%s: %d rows (%v); want %d", table, got, err, want)
			}
		}
		var named int
		if err := env.DB.Writer.GetContext(ctx, &named, env.DB.Rebind(
			`SELECT COUNT(*) FROM certificates WHERE workspace_id = ? AND student_id = ? AND course_id = ?`), ws, student, course); err != nil || named != 1 {
			t.Fatalf("certificate rows naming the memory ids: %d, %v", named, err)
		}
	})
}

// wantRefused fails unless r is a 422 naming param.
func wantRefused(t *testing.T, r testenv.Response, param string) {
	t.Helper()
	var body struct{ Error struct{ Param string } }
	r.Expect(t, http.StatusUnprocessableEntity).Decode(t, &body)
	if body.Error.Param != param {
		t.Fatalf("refused on %q; want %q: %s", body.Error.Param, param, r.Body)
	}
}
