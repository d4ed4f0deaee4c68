// Package enrollments holds a student's entitlement to a course, unique per (student,
// course) in a workspace, and the lessons the student completed under it.
package enrollments

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes enrollment ids (enr_...).
const IDPrefix = "enr"

// Status is where an enrollment stands.
type Status string

// Enrollment states.
const (
	Active    Status = "active"
	Revoked   Status = "revoked"
	Completed Status = "completed"
)

// Source tells who granted the enrollment.
type Source string

// Sources.
const (
	SourceAPI      Source = "api"
	SourceOrder    Source = "order"
	SourceOperator Source = "operator"
)

// Enrollment is the aggregate.
type Enrollment struct {
	ID          string
	WorkspaceID string
	StudentID   string
	CourseID    string
	Status      Status
	Source      Source
	CreatedAt   time.Time
	UpdatedAt   time.Time
	RevokedAt   *time.Time
	CompletedAt *time.Time
}

// New builds an active enrollment.
func New(id, workspaceID, studentID, courseID, source string, now time.Time) (*Enrollment, error) {
	src := Source(source)
	switch src {
	case SourceAPI, SourceOrder, SourceOperator:
	default:
		return nil, kernel.Invalid("source", "source must be one of api, order, operator")
	}
	return &Enrollment{
		ID: id, WorkspaceID: workspaceID, StudentID: studentID, CourseID: courseID,
		Status: Active, Source: src, CreatedAt: now, UpdatedAt: now,
	}, nil
}

// Reactivate restores a revoked enrollment (the entitlement starts again); it reports
// false when the enrollment was not revoked. Completion is a fact about the past, so
// a completed-then-revoked enrollment comes back completed.
func (e *Enrollment) Reactivate(now time.Time) bool {
	if e.Status != Revoked {
		return false
	}
	e.Status = Active
	if e.CompletedAt != nil {
		e.Status = Completed
	}
	e.RevokedAt = nil
	e.UpdatedAt = now
	return true
}

// Revoke ends the entitlement; it reports false when it was already revoked.
func (e *Enrollment) Revoke(now time.Time) bool {
	if e.Status == Revoked {
		return false
	}
	e.Status = Revoked
	e.RevokedAt = &now
	e.UpdatedAt = now
	return true
}

// CanProgress tells whether lessons may be completed under the enrollment.
func (e *Enrollment) CanProgress() error {
	if e.Status == Revoked {
		return kernel.Invalid("studentId", "the enrollment of student %s in course %s is revoked", e.StudentID, e.CourseID)
	}
	return nil
}

// RecordLesson notes progress: completed of total lessons are done. Reaching the end
// completes an active enrollment; completed reports that transition.
func (e *Enrollment) RecordLesson(completedLessons, totalLessons int, now time.Time) (completed bool) {
	e.UpdatedAt = now
	if e.Status != Active || totalLessons == 0 || completedLessons < totalLessons {
		return false
	}
	e.Status = Completed
	e.CompletedAt = &now
	return true
}

// Repository stores enrollments; every lookup is scoped to a workspace and returns
// NotFound outside it.
type Repository interface {
	// Add inserts e unless the workspace already has an enrollment of the same student
	// and course; added tells which. A unique constraint decides, so concurrent calls
	// create one row.
	Add(ctx context.Context, e *Enrollment) (added bool, err error)
	// Get and GetByPair load the enrollment locked for the caller's transaction.
	Get(ctx context.Context, workspaceID, id string) (*Enrollment, error)
	GetByPair(ctx context.Context, workspaceID, studentID, courseID string) (*Enrollment, error)
	Update(ctx context.Context, e *Enrollment) error
}
