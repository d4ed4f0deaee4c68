// Package certificates holds the certificate a student earns by completing a course.
package certificates

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes certificate ids.
const IDPrefix = "crt"

// Certificate attests that a student completed a course; one per student and course.
type Certificate struct {
	ID           string
	WorkspaceID  string
	StudentID    string
	CourseID     string
	EnrollmentID string
	IssuedAt     time.Time
}

// Completion is what a certificate needs: the student's enrollment in the course and
// whether it is completed.
type Completion struct {
	EnrollmentID string
	Status       string // active, revoked or completed
}

// Issue builds the certificate of a completed enrollment. An active (unfinished) or
// revoked enrollment earns nothing: a certificate attests completion.
func Issue(id, workspaceID, studentID, courseID string, c *Completion, now time.Time) (*Certificate, error) {
	if c == nil {
		return nil, kernel.Invalid("courseId", "student %s is not enrolled in course %s", studentID, courseID)
	}
	if c.Status != "completed" {
		return nil, kernel.Invalid("courseId", "student %s has not completed course %s (enrollment %s is %s)", studentID, courseID, c.EnrollmentID, c.Status)
	}
	return &Certificate{ID: id, WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID, EnrollmentID: c.EnrollmentID, IssuedAt: now}, nil
}

// Repository stores certificates.
type Repository interface {
	// Add inserts c unless the student already holds a certificate for the course, and
	// reports whether it inserted (a unique constraint decides, not a prior read).
	Add(ctx context.Context, c *Certificate) (bool, error)
}
