package events

import "time"

// LiveSession is the data of live_session.started and live_session.ended.
type LiveSession struct {
	ID        string     `json:"id"`
	Livemode  bool       `json:"livemode"` // false in a sandbox
	CourseID  string     `json:"courseId"`
	Title     string     `json:"title"`
	Status    string     `json:"status"`
	StartedAt *time.Time `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt"`
	CreatedAt time.Time  `json:"createdAt"`
	UpdatedAt time.Time  `json:"updatedAt"`
}

// Recording is the data of recording.ready.
type Recording struct {
	ID              string    `json:"id"`
	Livemode        bool      `json:"livemode"` // false in a sandbox
	LiveSessionID   string    `json:"liveSessionId"`
	CourseID        string    `json:"courseId"`
	Status          string    `json:"status"`
	DurationSeconds int       `json:"durationSeconds"`
	CreatedAt       time.Time `json:"createdAt"`
}

// Certificate is the data of certificate.issued.
type Certificate struct {
	ID           string    `json:"id"`
	Livemode     bool      `json:"livemode"` // false in a sandbox
	StudentID    string    `json:"studentId"`
	CourseID     string    `json:"courseId"`
	EnrollmentID string    `json:"enrollmentId"`
	IssuedAt     time.Time `json:"issuedAt"`
}
