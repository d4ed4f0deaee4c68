// Package query holds live sessions and recordings as the API and their events show them.
package query

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// LiveSession is the data of live_session.started and live_session.ended.
type LiveSession struct {
	ID        string     `json:"id"`
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
	LiveSessionID   string    `json:"liveSessionId"`
	CourseID        string    `json:"courseId"`
	Status          string    `json:"status"`
	DurationSeconds int       `json:"durationSeconds"`
	CreatedAt       time.Time `json:"createdAt"`
}

// SessionView shows s.
func SessionView(s *livesessions.Session) LiveSession {
	return LiveSession{ID: s.ID, CourseID: s.CourseID, Title: s.Title, Status: string(s.Status),
		StartedAt: s.StartedAt, EndedAt: s.EndedAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// RecordingView shows r; a stored recording is always ready (processing happens upstream).
func RecordingView(r *livesessions.Recording) Recording {
	return Recording{ID: r.ID, LiveSessionID: r.LiveSessionID, CourseID: r.CourseID, Status: "ready",
		DurationSeconds: r.DurationSeconds, CreatedAt: r.CreatedAt}
}
