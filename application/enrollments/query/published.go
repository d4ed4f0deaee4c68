package query

import (
	"context"
	"time"
)

// Facts is what other modules may know about an enrollment: its state and how many
// lessons it completed (the course's lesson count is the courses module's to tell).
type Facts struct {
	ID               string
	StudentID        string
	CourseID         string
	Status           string
	CreatedAt        time.Time
	RevokedAt        *time.Time
	CompletedAt      *time.Time
	CompletedLessons int
}

// Published is the enrollments module's published read port, wired to other modules by
// the composition root through the Application's FindStudentEnrollments,
// FindEnrollmentOfPair and FirstActivity. It reads in the caller's transaction when
// there is one.
type Published interface {
	// OfStudents returns the enrollments of the students among ids, by student id,
	// each student's oldest first (created_at, then id); students without any are absent.
	OfStudents(ctx context.Context, workspaceID string, studentIDs []string) (map[string][]Facts, error)
	// OfPair returns the enrollment of the student in the course, or kernel NotFound.
	OfPair(ctx context.Context, workspaceID, studentID, courseID string) (Facts, error)
	// FirstActivity returns the earliest enrollment or lesson completion over every
	// workspace; ok is false when there is none.
	FirstActivity(ctx context.Context) (at time.Time, ok bool, err error)
}

// FindStudentEnrollments asks for the enrollments of some students of a workspace.
type FindStudentEnrollments struct {
	WorkspaceID string
	StudentIDs  []string
}

// FindStudentEnrollments returns the enrollments by student id; students without any are absent.
func (r Reads) FindStudentEnrollments(ctx context.Context, q FindStudentEnrollments) (map[string][]Facts, error) {
	if len(q.StudentIDs) == 0 {
		return map[string][]Facts{}, nil
	}
	return r.Published.OfStudents(ctx, q.WorkspaceID, q.StudentIDs)
}

// FindEnrollmentOfPair asks for a student's enrollment in a course.
type FindEnrollmentOfPair struct {
	WorkspaceID, StudentID, CourseID string
}

// FindEnrollmentOfPair returns the enrollment, or kernel NotFound.
func (r Reads) FindEnrollmentOfPair(ctx context.Context, q FindEnrollmentOfPair) (Facts, error) {
	return r.Published.OfPair(ctx, q.WorkspaceID, q.StudentID, q.CourseID)
}
