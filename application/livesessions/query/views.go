// Package query holds live sessions and recordings as the API and their events show them.
package query

import (
	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// The API shapes are the payloads of live_session.* and recording.ready (application/events).
type (
	LiveSession = events.LiveSession
	Recording   = events.Recording
)

// SessionView shows s.
func SessionView(s *livesessions.Session) LiveSession {
	return LiveSession{ID: s.ID, Livemode: kernel.Livemode(s.WorkspaceID), CourseID: s.CourseID, Title: s.Title, Status: string(s.Status),
		StartedAt: s.StartedAt, EndedAt: s.EndedAt, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
}

// RecordingView shows r; a stored recording is always ready (processing happens upstream).
func RecordingView(r *livesessions.Recording) Recording {
	return Recording{ID: r.ID, Livemode: kernel.Livemode(r.WorkspaceID), LiveSessionID: r.LiveSessionID, CourseID: r.CourseID, Status: "ready",
		DurationSeconds: r.DurationSeconds, CreatedAt: r.CreatedAt}
}
