package livesessions

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// RecordingIDPrefix prefixes recording ids.
const RecordingIDPrefix = "rec"

// MaxRecordingSeconds bounds a recording to one day, like a lesson.
const MaxRecordingSeconds = 24 * 60 * 60

// Recording is the processed video of an ended session, ready to watch.
type Recording struct {
	ID              string
	WorkspaceID     string
	LiveSessionID   string
	CourseID        string
	DurationSeconds int
	CreatedAt       time.Time
}

// Record makes a recording of s; only an ended session has a complete recording.
func (s *Session) Record(id string, durationSeconds int, now time.Time) (*Recording, error) {
	if s.Status != Ended {
		return nil, kernel.Invalid("liveSessionId", "live session %s is %s; a recording needs an ended session", s.ID, s.Status)
	}
	if durationSeconds < 1 || durationSeconds > MaxRecordingSeconds {
		return nil, kernel.Invalid("durationSeconds", "durationSeconds must be between 1 and %d", MaxRecordingSeconds)
	}
	return &Recording{ID: id, WorkspaceID: s.WorkspaceID, LiveSessionID: s.ID, CourseID: s.CourseID,
		DurationSeconds: durationSeconds, CreatedAt: now}, nil
}

// Recordings stores recordings.
type Recordings interface {
	Add(ctx context.Context, r *Recording) error
}
