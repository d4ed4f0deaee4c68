package query

import (
	"context"
	"time"
)

// EnrolledCourse is what a student's page shows of one of its enrollments, before the
// course's lesson count turns its completed lessons into progress.
type EnrolledCourse struct {
	ID               string
	CourseID         string
	Status           string
	CreatedAt        time.Time
	RevokedAt        *time.Time
	CompletedAt      *time.Time
	CompletedLessons int
}

// EnrollmentHistory is the students module's port onto the enrollments module. The read
// model asks it once per page of students (never once per student).
type EnrollmentHistory interface {
	// EnrolledCourses maps each student among ids to its enrollments, oldest first;
	// students without any are absent.
	EnrolledCourses(ctx context.Context, workspaceID string, studentIDs []string) (map[string][]EnrolledCourse, error)
}
