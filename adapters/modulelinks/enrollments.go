package modulelinks

import (
	"context"

	certificatecmd "github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	enrollmentcmd "github.com/creatorapi/creatorapi/application/enrollments/command"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	ordercmd "github.com/creatorapi/creatorapi/application/orders/command"
	studentquery "github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/certificates"
	domainenrollments "github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The enrollments module's published queries, adapted to the small port each consumer
// declares in its own application package. Nobody else reads the enrollment tables.

// StudentEnrollmentHistory answers studentquery.EnrollmentHistory.
type StudentEnrollmentHistory struct{ App enrollments.Application }

// EnrolledCourses maps each student among ids to its enrollments, oldest first.
func (h StudentEnrollmentHistory) EnrolledCourses(ctx context.Context, workspaceID string, ids []string) (map[string][]studentquery.EnrolledCourse, error) {
	facts, err := h.App.Queries.FindStudentEnrollments.Handle(ctx, query.FindStudentEnrollments{WorkspaceID: workspaceID, StudentIDs: ids})
	if err != nil {
		return nil, err
	}
	out := make(map[string][]studentquery.EnrolledCourse, len(facts))
	for id, ens := range facts {
		list := make([]studentquery.EnrolledCourse, len(ens))
		for i, e := range ens {
			list[i] = studentquery.EnrolledCourse{ID: e.ID, CourseID: e.CourseID, Status: e.Status, CreatedAt: e.CreatedAt,
				RevokedAt: e.RevokedAt, CompletedAt: e.CompletedAt, CompletedLessons: e.CompletedLessons}
		}
		out[id] = list
	}
	return out, nil
}

// CertificateCompletions answers certificatecmd.Completions.
type CertificateCompletions struct{ App enrollments.Application }

// Of returns the student's enrollment in the course, or nil when there is none.
func (c CertificateCompletions) Of(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Completion, error) {
	e, err := c.App.Queries.FindEnrollmentOfPair.Handle(ctx, query.FindEnrollmentOfPair{
		WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID})
	if kernel.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &certificates.Completion{EnrollmentID: e.ID, Status: e.Status}, nil
}

// OrderEntitlements answers ordercmd.Entitlements with the module's commands (they join
// the order's transaction and emit their own events).
type OrderEntitlements struct{ App enrollments.Application }

// Grant enrolls the student with source "order" (or reactivates a revoked enrollment).
func (e OrderEntitlements) Grant(ctx context.Context, workspaceID, studentID, courseID string) (string, error) {
	en, err := e.App.Commands.GrantEnrollment.Handle(ctx, enrollmentcmd.GrantEnrollment{
		WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID, Source: string(domainenrollments.SourceOrder),
	})
	return en.Value.ID, err
}

// Revoke revokes the enrollment; an already revoked one stays as it is.
func (e OrderEntitlements) Revoke(ctx context.Context, workspaceID, enrollmentID string) error {
	_, err := e.App.Commands.RevokeEnrollment.Handle(ctx, enrollmentcmd.RevokeEnrollment{WorkspaceID: workspaceID, EnrollmentID: enrollmentID})
	return err
}

// The adapters satisfy the consumers' ports.
var (
	_ studentquery.EnrollmentHistory = StudentEnrollmentHistory{}
	_ certificatecmd.Completions     = CertificateCompletions{}
	_ ordercmd.Entitlements          = OrderEntitlements{}
)
