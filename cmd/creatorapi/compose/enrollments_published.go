package compose

import (
	"context"
	"time"

	certificatecmd "github.com/creatorapi/creatorapi/application/certificates/command"
	"github.com/creatorapi/creatorapi/application/enrollments"
	"github.com/creatorapi/creatorapi/application/enrollments/query"
	studentquery "github.com/creatorapi/creatorapi/application/students/query"
	"github.com/creatorapi/creatorapi/domain/certificates"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The enrollments module's published queries, adapted to the small port each consumer
// declares in its own application package. Nobody else reads the enrollment tables.

// studentEnrollmentHistory answers studentquery.EnrollmentHistory.
type studentEnrollmentHistory struct{ app enrollments.Application }

// EnrolledCourses maps each student among ids to its enrollments, oldest first.
func (h studentEnrollmentHistory) EnrolledCourses(ctx context.Context, workspaceID string, ids []string) (map[string][]studentquery.EnrolledCourse, error) {
	facts, err := h.app.Queries.FindStudentEnrollments.Handle(ctx, query.FindStudentEnrollments{WorkspaceID: workspaceID, StudentIDs: ids})
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

// certificateCompletions answers certificatecmd.Completions.
type certificateCompletions struct{ app enrollments.Application }

// Of returns the student's enrollment in the course, or nil when there is none.
func (c certificateCompletions) Of(ctx context.Context, workspaceID, studentID, courseID string) (*certificates.Completion, error) {
	e, err := c.app.Queries.FindEnrollmentOfPair.Handle(ctx, query.FindEnrollmentOfPair{
		WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID})
	if kernel.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &certificates.Completion{EnrollmentID: e.ID, Status: e.Status}, nil
}

// firstEnrollmentActivity answers the analytics rebuild's question "since when do the
// enrollments count something" (Operations.checkOutboxCovers).
type firstEnrollmentActivity struct{ app enrollments.Application }

// First returns the earliest enrollment or lesson completion, any workspace.
func (f firstEnrollmentActivity) First(ctx context.Context) (time.Time, bool, error) {
	a, err := f.app.Queries.FirstActivity.Handle(ctx, struct{}{})
	return a.At, a.OK, err
}

// The adapters satisfy the consumers' ports.
var (
	_ studentquery.EnrollmentHistory = studentEnrollmentHistory{}
	_ certificatecmd.Completions     = certificateCompletions{}
)
