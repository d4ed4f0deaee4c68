package events

import "time"

// Enrollment is the data of enrollment.created, enrollment.revoked and the internal
// enrollment.completed, and the API's enrollment.
type Enrollment struct {
	ID          string     `json:"id"`
	Livemode    bool       `json:"livemode"` // false in a sandbox
	StudentID   string     `json:"studentId"`
	CourseID    string     `json:"courseId"`
	Status      string     `json:"status"`
	Source      string     `json:"source"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
}

// LessonProgress is a completed lesson with where the enrollment stands after it: the
// data of the internal lesson.completed and the answer of POST W/progress.
type LessonProgress struct {
	StudentID    string     `json:"studentId"`
	CourseID     string     `json:"courseId"`
	LessonID     string     `json:"lessonId"`
	EnrollmentID string     `json:"enrollmentId"`
	CompletedAt  time.Time  `json:"completedAt"`
	Progress     Progress   `json:"progress"`
	Enrollment   Enrollment `json:"enrollment"`
}
