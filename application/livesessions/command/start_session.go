package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions/query"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// StartSession takes a scheduled session live (emits live_session.started).
type StartSession struct {
	WorkspaceID   string
	LiveSessionID string
}

// StartSessionHandler handles StartSession.
type StartSessionHandler struct{ deps Deps }

// NewStartSessionHandler builds the handler.
func NewStartSessionHandler(d Deps) StartSessionHandler { return StartSessionHandler{deps: d} }

// Handle returns the live session.
func (h StartSessionHandler) Handle(ctx context.Context, cmd StartSession) (query.LiveSession, error) {
	return h.deps.sessions().Step(ctx, cmd.WorkspaceID, cmd.LiveSessionID, (*livesessions.Session).Start, events.LiveSessionStartedV1)
}
