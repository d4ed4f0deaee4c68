package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// AddRecording stores the recording of an ended session (emits recording.ready).
type AddRecording struct {
	WorkspaceID     string
	LiveSessionID   string
	DurationSeconds int
}

// AddRecording returns the recording. The session is a reference in the body, so one that does
// not resolve in the workspace is 422 liveSessionId, not 404.
func (d Deps) AddRecording(ctx context.Context, cmd AddRecording) (out query.Recording, err error) {
	if err := d.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	s, err := d.Sessions.Get(ctx, cmd.WorkspaceID, cmd.LiveSessionID)
	if kernel.IsNotFound(err) {
		return out, kernel.Invalid("liveSessionId", "live session %s does not exist in this workspace", cmd.LiveSessionID)
	}
	if err != nil {
		return out, err
	}
	r, err := s.Record(d.IDs.New(livesessions.RecordingIDPrefix), cmd.DurationSeconds, d.Clock.Now())
	if err != nil {
		return out, err
	}
	if err := d.Recordings.Add(ctx, r); err != nil {
		return out, err
	}
	out = query.RecordingView(r)
	return out, d.Publisher.Publish(ctx, events.RecordingReadyV1.New(cmd.WorkspaceID, out))
}
