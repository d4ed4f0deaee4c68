// Package query reads enrollments and lesson progress as the API shows them.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/enrollments"
)

// Enrollment is the API shape of an enrollment (and the data of enrollment.* events).
type Enrollment struct {
	ID          string     `json:"id"`
	StudentID   string     `json:"studentId"`
	CourseID    string     `json:"courseId"`
	Status      string     `json:"status"`
	Source      string     `json:"source"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
}

// FromDomain shows e.
func FromDomain(e *enrollments.Enrollment) Enrollment {
	return Enrollment{
		ID: e.ID, StudentID: e.StudentID, CourseID: e.CourseID, Status: string(e.Status), Source: string(e.Source),
		CreatedAt: e.CreatedAt.UTC(), RevokedAt: utcPtr(e.RevokedAt), CompletedAt: utcPtr(e.CompletedAt),
	}
}

// LessonProgress is a completed lesson with where the enrollment stands after it
// (the answer of POST W/progress and the data of lesson.completed).
type LessonProgress struct {
	StudentID    string     `json:"studentId"`
	CourseID     string     `json:"courseId"`
	LessonID     string     `json:"lessonId"`
	EnrollmentID string     `json:"enrollmentId"`
	CompletedAt  time.Time  `json:"completedAt"`
	Progress     Progress   `json:"progress"`
	Enrollment   Enrollment `json:"enrollment"`
}

// Progress counts completed lessons; Percent is floor(completed*100/total), 0 without lessons.
type Progress struct {
	CompletedLessons int `json:"completedLessons"`
	TotalLessons     int `json:"totalLessons"`
	Percent          int `json:"percent"`
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

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
