// Package query reads enrollments and lesson progress as the API shows them.
package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/enrollments"
	"github.com/creatorapi/creatorapi/domain/kernel"
)

// The API shapes are the payloads of enrollment.* and lesson.completed (application/events).
type (
	Enrollment     = events.Enrollment
	LessonProgress = events.LessonProgress
	Progress       = events.Progress
)

// FromDomain shows e.
func FromDomain(e *enrollments.Enrollment) Enrollment {
	return Enrollment{
		ID: e.ID, Livemode: kernel.Livemode(e.WorkspaceID), StudentID: e.StudentID, CourseID: e.CourseID, Status: string(e.Status), Source: string(e.Source),
		CreatedAt: e.CreatedAt.UTC(), RevokedAt: platform.UTCPtr(e.RevokedAt), CompletedAt: platform.UTCPtr(e.CompletedAt),
	}
}

// NewProgress computes the percentage.
func NewProgress(completed, total int) Progress {
	return Progress{CompletedLessons: completed, TotalLessons: total, Percent: enrollments.Percent(completed, total)}
}

// ReadModel answers enrollment queries scoped to one workspace.
type ReadModel interface {
	// Find returns the enrollment or kernel NotFound.
	Find(ctx context.Context, workspaceID, id string) (Enrollment, error)
}
