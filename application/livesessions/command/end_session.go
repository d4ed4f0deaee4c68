package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/livesessions/query"
	"github.com/creatorapi/creatorapi/domain/livesessions"
)

// EndSession closes a live session (emits live_session.ended).
type EndSession struct {
	WorkspaceID   string
	LiveSessionID string
}

// EndSessionHandler handles EndSession.
type EndSessionHandler struct{ deps Deps }

// NewEndSessionHandler builds the handler.
func NewEndSessionHandler(d Deps) EndSessionHandler { return EndSessionHandler{deps: d} }

// Handle returns the ended session.
func (h EndSessionHandler) Handle(ctx context.Context, cmd EndSession) (query.LiveSession, error) {
	return h.deps.sessions().Step(ctx, cmd.WorkspaceID, cmd.LiveSessionID, (*livesessions.Session).End, events.LiveSessionEndedV1)
}
