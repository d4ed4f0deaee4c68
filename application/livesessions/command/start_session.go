package command

import (
	"context"
	"fmt"
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
// with the session as the API shows it, in the same transaction.
func (d Deps) transition(ctx context.Context, workspaceID, id string, t events.Contract[events.LiveSession],
	step func(*livesessions.Session, time.Time) error) (query.LiveSession, error) {
	var out query.LiveSession
	err := d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		s, err := d.Sessions.Get(ctx, workspaceID, id)
		if err != nil {
			return err
		}
		if err := step(s, d.Clock.Now()); err != nil {
			return err
		}
		if err := d.Sessions.Update(ctx, s); err != nil {
			return err
		}
		out = query.SessionView(s)
		return d.Publisher.Publish(ctx, t.New(workspaceID, out))
	})
	if err != nil {
		return query.LiveSession{}, fmt.Errorf("%s: %w", t.Type, err)
	}
	return out, nil
}
