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

// StartSession returns the live session.
func (d Deps) StartSession(ctx context.Context, cmd StartSession) (query.LiveSession, error) {
	return d.sessions().Step(ctx, cmd.WorkspaceID, cmd.LiveSessionID, (*livesessions.Session).Start, events.LiveSessionStartedV1)
}

// EndSession closes a live session (emits live_session.ended).
type EndSession struct {
	WorkspaceID   string
	LiveSessionID string
}

// EndSession returns the ended session.
func (d Deps) EndSession(ctx context.Context, cmd EndSession) (query.LiveSession, error) {
	return d.sessions().Step(ctx, cmd.WorkspaceID, cmd.LiveSessionID, (*livesessions.Session).End, events.LiveSessionEndedV1)
}
