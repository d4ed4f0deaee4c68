package enrollments

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// LessonCompletion records that a student completed a lesson under an enrollment.
type LessonCompletion struct {
	WorkspaceID  string
	EnrollmentID string
	StudentID    string
	CourseID     string
	LessonID     string
	CompletedAt  time.Time
}

// ProgressRepository stores lesson completions, at most one per enrollment and lesson.
type ProgressRepository interface {
	// Add records c unless that lesson was already completed; added tells which.
	Add(ctx context.Context, c LessonCompletion) (added bool, err error)
	// Get returns the recorded completion, or NotFound.
	Get(ctx context.Context, workspaceID, enrollmentID, lessonID string) (LessonCompletion, error)
	// Count returns how many lessons the enrollment completed.
	Count(ctx context.Context, workspaceID, enrollmentID string) (int, error)
}

// Percent is the kernel's progress rule (kernel.Percent), named where enrollments use it.
func Percent(completedLessons, totalLessons int) int {
	return kernel.Percent(completedLessons, totalLessons)
}
