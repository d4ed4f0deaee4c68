package command

import (
	"context"
	"time"

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
	return h.deps.transition(ctx, cmd.WorkspaceID, cmd.LiveSessionID, events.LiveSessionStartedV1, (*livesessions.Session).Start)
}

// transition applies a life-cycle step to a locked session and publishes its event,
// with the session as the API shows it, in the command's transaction.
func (d Deps) transition(ctx context.Context, workspaceID, id string, t events.Contract[events.LiveSession],
	step func(*livesessions.Session, time.Time) error) (query.LiveSession, error) {
	s, err := d.Sessions.Get(ctx, workspaceID, id)
	if err != nil {
		return query.LiveSession{}, err
	}
	if err := step(s, d.Clock.Now()); err != nil {
		return query.LiveSession{}, err
	}
	if err := d.Sessions.Update(ctx, s); err != nil {
		return query.LiveSession{}, err
	}
	out := query.SessionView(s)
	return out, d.Publisher.Publish(ctx, t.New(workspaceID, out))
}
