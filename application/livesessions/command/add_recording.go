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

// AddRecordingHandler handles AddRecording.
type AddRecordingHandler struct{ deps Deps }

// NewAddRecordingHandler builds the handler.
func NewAddRecordingHandler(d Deps) AddRecordingHandler { return AddRecordingHandler{deps: d} }

// Handle returns the recording. The session is a reference in the body, so one that does
// not resolve in the workspace is 422 liveSessionId, not 404.
func (h AddRecordingHandler) Handle(ctx context.Context, cmd AddRecording) (out query.Recording, err error) {
	if err := h.deps.requireWorkspace(ctx, cmd.WorkspaceID); err != nil {
		return out, err
	}
	s, err := h.deps.Sessions.Get(ctx, cmd.WorkspaceID, cmd.LiveSessionID)
	if kernel.IsNotFound(err) {
		return out, kernel.Invalid("liveSessionId", "live session %s does not exist in this workspace", cmd.LiveSessionID)
	}
	if err != nil {
		return out, err
	}
	r, err := s.Record(h.deps.IDs.New(livesessions.RecordingIDPrefix), cmd.DurationSeconds, h.deps.Clock.Now())
	if err != nil {
		return out, err
	}
	if err := h.deps.Recordings.Add(ctx, r); err != nil {
		return out, err
	}
	out = query.RecordingView(r)
	return out, h.deps.Publisher.Publish(ctx, events.RecordingReadyV1.New(cmd.WorkspaceID, out))
}
