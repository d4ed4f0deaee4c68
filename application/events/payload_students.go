package events

import "time"

// Student is the data of student.created, student.updated and student.deleted, and the
// API's student. UpdatedAt moves whenever the profile or anything embedded (an
// enrollment, its progress) changes.
type Student struct {
	ID          string              `json:"id"`
	Livemode    bool                `json:"livemode"` // false in a sandbox
	Email       string              `json:"email"`
	FirstName   string              `json:"firstName"`
	LastName    string              `json:"lastName"`
	ExternalID  string              `json:"externalId"`
	Metadata    map[string]string   `json:"metadata"`
	CreatedAt   time.Time           `json:"createdAt"`
	UpdatedAt   time.Time           `json:"updatedAt"`
	Enrollments []StudentEnrollment `json:"enrollments"`
}

// StudentEnrollment is one entry of a student's enrollment history, oldest first.
type StudentEnrollment struct {
	ID          string     `json:"id"`
	CourseID    string     `json:"courseId"`
	Status      string     `json:"status"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt"`
	CompletedAt *time.Time `json:"completedAt"`
	Progress    Progress   `json:"progress"`
}

// Progress counts completed lessons of the course. Percent is an integer 0..100,
// floor(completedLessons*100/totalLessons), 0 when the course has no lessons.
type Progress struct {
	CompletedLessons int `json:"completedLessons"`
	TotalLessons     int `json:"totalLessons"`
	Percent          int `json:"percent"`
}
