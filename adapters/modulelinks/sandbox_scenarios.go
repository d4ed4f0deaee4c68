package modulelinks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	"github.com/creatorapi/creatorapi/application/certificates"
	certcmd "github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/courses"
	coursecmd "github.com/creatorapi/creatorapi/application/courses/command"
	coursequery "github.com/creatorapi/creatorapi/application/courses/query"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions"
	lvscmd "github.com/creatorapi/creatorapi/application/livesessions/command"
	"github.com/creatorapi/creatorapi/application/orders"
	ordcmd "github.com/creatorapi/creatorapi/application/orders/command"
	"github.com/creatorapi/creatorapi/application/students"
	stucmd "github.com/creatorapi/creatorapi/application/students/command"
)

// SandboxScenarios runs, in a sandbox workspace, the real use cases behind each public
// event type, so that the event is recorded in the outbox like any other and reaches
// the sandbox's webhooks and feed. Each scenario builds what it needs (a fresh course,
// student...) and so never depends on what the sandbox already holds; the setup emits
// its own events too (course.published before order.paid), as the live flow would.
type SandboxScenarios struct {
	Courses      courses.Application
	Students     students.Application
	Enrollments  enrollments.Application
	Orders       orders.Application
	LiveSessions livesessions.Application
	Certificates certificates.Application
}

// scenario runs in workspace ws and returns the id of the resource of its event.
type scenario func(ctx context.Context, ws string) (string, error)

// Trigger runs the scenario of t in workspace ws and returns the id of the resource of
// its event; ok is false for a type that is not a public catalogue type.
func (s SandboxScenarios) Trigger(ctx context.Context, ws string, t events.Type) (id string, ok bool, err error) {
	run, ok := s.byType()[t]
	if !ok {
		return "", false, nil
	}
	id, err = run(ctx, ws)
	return id, true, err
}

// seedScenarios make a new sandbox answer every GET: published courses with modules and
// lessons, students, paid and refunded orders, enrollments (one revoked, one completed
// with its certificate) and a live session with its recording.
var seedScenarios = []events.Type{
	events.OrderPaid, events.OrderPaid, events.OrderRefunded, events.EnrollmentRevoked,
	events.CertificateIssued, events.RecordingReady, events.StudentCreated,
}

// Seed fills a new sandbox through the same scenarios the test helpers run, so the seed
// is made of exactly what integrators can trigger. Called in the transaction that opens
// the sandbox: a sandbox is either seeded or not created.
func (s SandboxScenarios) Seed(ctx context.Context, ws string) error {
	for _, t := range seedScenarios {
		if _, _, err := s.Trigger(ctx, ws, t); err != nil {
			return fmt.Errorf("seed sandbox with %s: %w", t, err)
		}
	}
	return nil
}

func (s SandboxScenarios) byType() map[events.Type]scenario {
	return map[events.Type]scenario{
		events.StudentCreated:     s.studentCreated,
		events.StudentUpdated:     s.studentUpdated,
		events.StudentDeleted:     s.studentDeleted,
		events.EnrollmentCreated:  s.enrollmentCreated,
		events.EnrollmentRevoked:  s.enrollmentRevoked,
		events.OrderPaid:          s.orderPaid,
		events.OrderRefunded:      s.orderRefunded,
		events.CoursePublished:    s.coursePublished,
		events.CourseArchived:     s.courseArchived,
		events.LiveSessionStarted: s.liveSessionStarted,
		events.LiveSessionEnded:   s.liveSessionEnded,
		events.RecordingReady:     s.recordingReady,
		events.CertificateIssued:  s.certificateIssued,
	}
}

// course creates a course of one module and one lesson, published unless draft.
func (s SandboxScenarios) course(ctx context.Context, ws string, draft bool) (coursequery.CourseDetail, error) {
	c := s.Courses.Commands
	course, err := c.CreateCourse.Handle(ctx, coursecmd.CreateCourse{WorkspaceID: ws, Title: "Test course " + suffix(),
		Description: "Made by a test helper."})
	if err != nil {
		return course, err
	}
	m, err := c.AddModule.Handle(ctx, coursecmd.AddModule{WorkspaceID: ws, CourseID: course.ID, Title: "Basics"})
	if err != nil {
		return course, err
	}
	if _, err := c.AddLesson.Handle(ctx, coursecmd.AddLesson{WorkspaceID: ws, ModuleID: m.ID, Title: "Welcome", Type: "video", DurationSeconds: 300}); err != nil {
		return course, err
	}
	if draft {
		return course, nil
	}
	return c.PublishCourse.Handle(ctx, coursecmd.PublishCourse{WorkspaceID: ws, CourseID: course.ID})
}

func (s SandboxScenarios) student(ctx context.Context, ws string) (string, error) {
	sfx := suffix()
	st, err := s.Students.Commands.CreateStudent.Handle(ctx, stucmd.CreateStudent{WorkspaceID: ws,
		Email: "test+" + sfx + "@example.com", FirstName: "Test", LastName: "Student " + sfx})
	return st.Value.ID, err
}

func (s SandboxScenarios) studentCreated(ctx context.Context, ws string) (string, error) {
	return s.student(ctx, ws)
}

func (s SandboxScenarios) studentUpdated(ctx context.Context, ws string) (string, error) {
	id, err := s.student(ctx, ws)
	if err != nil {
		return "", err
	}
	first := "Updated"
	_, err = s.Students.Commands.UpdateStudent.Handle(ctx, stucmd.UpdateStudent{WorkspaceID: ws, StudentID: id, FirstName: &first})
	return id, err
}

func (s SandboxScenarios) studentDeleted(ctx context.Context, ws string) (string, error) {
	id, err := s.student(ctx, ws)
	if err != nil {
		return "", err
	}
	_, err = s.Students.Commands.DeleteStudent.Handle(ctx, stucmd.DeleteStudent{WorkspaceID: ws, StudentID: id})
	return id, err
}

// enrollment enrolls a new student in a new published course.
func (s SandboxScenarios) enrollment(ctx context.Context, ws string) (enrollmentID, studentID string, course coursequery.CourseDetail, err error) {
	if course, err = s.course(ctx, ws, false); err != nil {
		return "", "", course, err
	}
	if studentID, err = s.student(ctx, ws); err != nil {
		return "", "", course, err
	}
	e, err := s.Enrollments.Commands.GrantEnrollment.Handle(ctx, enrcmd.GrantEnrollment{WorkspaceID: ws, StudentID: studentID, CourseID: course.ID, Source: "api"})
	return e.Value.ID, studentID, course, err
}

func (s SandboxScenarios) enrollmentCreated(ctx context.Context, ws string) (string, error) {
	id, _, _, err := s.enrollment(ctx, ws)
	return id, err
}

func (s SandboxScenarios) enrollmentRevoked(ctx context.Context, ws string) (string, error) {
	id, _, _, err := s.enrollment(ctx, ws)
	if err != nil {
		return "", err
	}
	_, err = s.Enrollments.Commands.RevokeEnrollment.Handle(ctx, enrcmd.RevokeEnrollment{WorkspaceID: ws, EnrollmentID: id})
	return id, err
}

func (s SandboxScenarios) orderPaid(ctx context.Context, ws string) (string, error) {
	course, err := s.course(ctx, ws, false)
	if err != nil {
		return "", err
	}
	studentID, err := s.student(ctx, ws)
	if err != nil {
		return "", err
	}
	o, err := s.Orders.Commands.PlaceOrder.Handle(ctx, ordcmd.PlaceOrder{WorkspaceID: ws, StudentID: studentID, Currency: "usd",
		Items: []ordcmd.OrderItem{{CourseID: course.ID, Amount: 4900}}})
	return o.ID, err
}

func (s SandboxScenarios) orderRefunded(ctx context.Context, ws string) (string, error) {
	id, err := s.orderPaid(ctx, ws)
	if err != nil {
		return "", err
	}
	_, err = s.Orders.Commands.RefundOrder.Handle(ctx, ordcmd.RefundOrder{WorkspaceID: ws, OrderID: id})
	return id, err
}

func (s SandboxScenarios) coursePublished(ctx context.Context, ws string) (string, error) {
	c, err := s.course(ctx, ws, false)
	return c.ID, err
}

func (s SandboxScenarios) courseArchived(ctx context.Context, ws string) (string, error) {
	c, err := s.course(ctx, ws, false)
	if err != nil {
		return "", err
	}
	_, err = s.Courses.Commands.ArchiveCourse.Handle(ctx, coursecmd.ArchiveCourse{WorkspaceID: ws, CourseID: c.ID})
	return c.ID, err
}

func (s SandboxScenarios) liveSessionStarted(ctx context.Context, ws string) (string, error) {
	c, err := s.course(ctx, ws, false)
	if err != nil {
		return "", err
	}
	l := s.LiveSessions.Commands
	session, err := l.ScheduleSession.Handle(ctx, lvscmd.ScheduleSession{WorkspaceID: ws, CourseID: c.ID, Title: "Test session"})
	if err != nil {
		return "", err
	}
	_, err = l.StartSession.Handle(ctx, lvscmd.StartSession{WorkspaceID: ws, LiveSessionID: session.ID})
	return session.ID, err
}

func (s SandboxScenarios) liveSessionEnded(ctx context.Context, ws string) (string, error) {
	id, err := s.liveSessionStarted(ctx, ws)
	if err != nil {
		return "", err
	}
	_, err = s.LiveSessions.Commands.EndSession.Handle(ctx, lvscmd.EndSession{WorkspaceID: ws, LiveSessionID: id})
	return id, err
}

func (s SandboxScenarios) recordingReady(ctx context.Context, ws string) (string, error) {
	id, err := s.liveSessionEnded(ctx, ws)
	if err != nil {
		return "", err
	}
	r, err := s.LiveSessions.Commands.AddRecording.Handle(ctx, lvscmd.AddRecording{WorkspaceID: ws, LiveSessionID: id, DurationSeconds: 1800})
	return r.ID, err
}

// certificateIssued completes the course's one lesson first: a certificate needs a completion.
func (s SandboxScenarios) certificateIssued(ctx context.Context, ws string) (string, error) {
	_, studentID, course, err := s.enrollment(ctx, ws)
	if err != nil {
		return "", err
	}
	for _, m := range course.Modules {
		for _, l := range m.Lessons {
			if _, err := s.Enrollments.Commands.RecordProgress.Handle(ctx, enrcmd.RecordProgress{WorkspaceID: ws, StudentID: studentID, LessonID: l.ID}); err != nil {
				return "", fmt.Errorf("complete lesson: %w", err)
			}
		}
	}
	c, err := s.Certificates.Commands.IssueCertificate.Handle(ctx, certcmd.IssueCertificate{WorkspaceID: ws, StudentID: studentID, CourseID: course.ID})
	return c.Value.ID, err
}

// suffix makes names and addresses unique across repeated triggers.
func suffix() string {
	var b [4]byte
	_, _ = rand.Read(b[:]) // crypto/rand never fails on supported platforms
	return hex.EncodeToString(b[:])
}
