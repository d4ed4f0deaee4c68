package demo

import (
	"context"
	"fmt"
	"strings"

	certcmd "github.com/creatorapi/creatorapi/application/certificates/command"
	coursequery "github.com/creatorapi/creatorapi/application/courses/query"
	enrcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	lvscmd "github.com/creatorapi/creatorapi/application/livesessions/command"
	ordcmd "github.com/creatorapi/creatorapi/application/orders/command"
	stucmd "github.com/creatorapi/creatorapi/application/students/command"
)

var (
	firstNames = []string{"Ada", "Grace", "Alan", "Katherine", "Linus", "Margaret", "Dennis", "Barbara", "Ken", "Frances"}
	lastNames  = []string{"Lovelace", "Hopper", "Turing", "Johnson", "Torvalds"}
)

const demoStudents = 50

// seedLearning fills the catalogue with students, sales in two currencies (one order
// fully refunded, one partly), progress that completes some enrollments, certificates
// and a live session with its recording: every event type but the student updates.
func (s Seeder) seedLearning(ctx context.Context, wsID string, catalogue []coursequery.CourseDetail) error {
	var studentIDs []string
	for i := 0; i < demoStudents; i++ {
		first, last := firstNames[i%len(firstNames)], lastNames[i/len(firstNames)%len(lastNames)]
		st, err := s.Students.Commands.CreateStudent.Handle(ctx, stucmd.CreateStudent{
			WorkspaceID: wsID, FirstName: first, LastName: last,
			Email:      fmt.Sprintf("%s.%s.%d@students.example", strings.ToLower(first), strings.ToLower(last), i+1),
			ExternalID: fmt.Sprintf("crm-%04d", i+1),
			Metadata:   map[string]string{"source": []string{"newsletter", "webinar", "referral"}[i%3]},
		})
		if err != nil {
			return fmt.Errorf("student %d: %w", i, err)
		}
		studentIDs = append(studentIDs, st.Value.ID)
	}

	var orderIDs []string
	for i, stID := range studentIDs[:36] {
		currency, price := "usd", int64(4900)
		if i%2 == 1 {
			currency, price = "eur", 4500
		}
		items := []ordcmd.OrderItem{{CourseID: catalogue[i%len(catalogue)].ID, Amount: price}}
		if i%6 == 0 { // a bundle of two courses
			items = append(items, ordcmd.OrderItem{CourseID: catalogue[(i+1)%len(catalogue)].ID, Amount: price * 2})
		}
		o, err := s.Orders.Commands.PlaceOrder.Handle(ctx, ordcmd.PlaceOrder{WorkspaceID: wsID, StudentID: stID, Currency: currency, Items: items})
		if err != nil {
			return fmt.Errorf("order %d: %w", i, err)
		}
		orderIDs = append(orderIDs, o.ID)
	}
	partial := int64(1500)
	if _, err := s.Orders.Commands.RefundOrder.Handle(ctx, ordcmd.RefundOrder{WorkspaceID: wsID, OrderID: orderIDs[3], Amount: &partial}); err != nil {
		return fmt.Errorf("partial refund: %w", err)
	}
	if _, err := s.Orders.Commands.RefundOrder.Handle(ctx, ordcmd.RefundOrder{WorkspaceID: wsID, OrderID: orderIDs[5]}); err != nil {
		return fmt.Errorf("full refund: %w", err)
	}
	// Scholarships: enrollments granted by the operator, without an order.
	for i, stID := range studentIDs[36:44] {
		if _, err := s.Enrollments.Commands.GrantEnrollment.Handle(ctx, enrcmd.GrantEnrollment{
			WorkspaceID: wsID, StudentID: stID, CourseID: catalogue[i%len(catalogue)].ID, Source: "operator",
		}); err != nil {
			return fmt.Errorf("scholarship %d: %w", i, err)
		}
	}
	return s.seedProgress(ctx, wsID, studentIDs, catalogue)
}

// seedProgress walks students through their first course: some finish it and get a certificate.
func (s Seeder) seedProgress(ctx context.Context, wsID string, studentIDs []string, catalogue []coursequery.CourseDetail) error {
	for i, stID := range studentIDs[:30] {
		if i == 5 {
			continue // that order was fully refunded
		}
		course := catalogue[i%len(catalogue)]
		lessons := lessonIDs(course)
		done := len(lessons) * (i % 4) / 3 // 0%, a third, two thirds, all
		if done > len(lessons) {
			done = len(lessons)
		}
		for _, lessonID := range lessons[:done] {
			if _, err := s.Enrollments.Commands.RecordProgress.Handle(ctx, enrcmd.RecordProgress{WorkspaceID: wsID, StudentID: stID, LessonID: lessonID}); err != nil {
				return fmt.Errorf("progress of student %d: %w", i, err)
			}
		}
		if done == len(lessons) && i%8 == 3 { // half of those who finished
			if _, err := s.Certificates.Commands.IssueCertificate.Handle(ctx, certcmd.IssueCertificate{WorkspaceID: wsID, StudentID: stID, CourseID: course.ID}); err != nil {
				return fmt.Errorf("certificate of student %d: %w", i, err)
			}
		}
	}
	return s.seedLiveSession(ctx, wsID, catalogue[0].ID)
}

func (s Seeder) seedLiveSession(ctx context.Context, wsID, courseID string) error {
	lc := s.LiveSessions.Commands
	session, err := lc.ScheduleSession.Handle(ctx, lvscmd.ScheduleSession{WorkspaceID: wsID, CourseID: courseID, Title: "Monthly portfolio review"})
	if err != nil {
		return fmt.Errorf("live session: %w", err)
	}
	if _, err := lc.StartSession.Handle(ctx, lvscmd.StartSession{WorkspaceID: wsID, LiveSessionID: session.ID}); err != nil {
		return fmt.Errorf("start live session: %w", err)
	}
	if _, err := lc.EndSession.Handle(ctx, lvscmd.EndSession{WorkspaceID: wsID, LiveSessionID: session.ID}); err != nil {
		return fmt.Errorf("end live session: %w", err)
	}
	if _, err := lc.AddRecording.Handle(ctx, lvscmd.AddRecording{WorkspaceID: wsID, LiveSessionID: session.ID, DurationSeconds: 3540}); err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	// A second session stays scheduled, for trying start and end by hand.
	_, err = lc.ScheduleSession.Handle(ctx, lvscmd.ScheduleSession{WorkspaceID: wsID, CourseID: courseID, Title: "Q&A office hours"})
	return err
}

func lessonIDs(c coursequery.CourseDetail) []string {
	var ids []string
	for _, m := range c.Modules {
		for _, l := range m.Lessons {
			ids = append(ids, l.ID)
		}
	}
	return ids
}
