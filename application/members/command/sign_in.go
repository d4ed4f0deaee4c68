package command

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// SignIn consumes a link (the POST of its page) and starts a session.
type SignIn struct {
	Token   string
	Address string
}

// SignedIn is the new session: the token goes into the cookie and nowhere else.
type SignedIn struct {
	SessionToken string
	WorkspaceID  string
	Email        string
}

// SignInHandler handles SignIn.
type SignInHandler struct{ D Deps }

// Handle refuses a link that is unknown, expired, used, or whose person no longer
// belongs to its workspace, with the same error.
func (h SignInHandler) Handle(ctx context.Context, cmd SignIn) (SignedIn, error) {
	now := h.D.Clock.Now()
	var out SignedIn
	err := h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		l, err := h.D.Links.Get(ctx, members.HashToken(cmd.Token))
		if err != nil {
			return err
		}
		if err := l.Use(now); err != nil {
			return err
		}
		if used, err := h.D.Links.SaveUse(ctx, l); err != nil {
			return err
		} else if !used {
			return members.ErrLinkUnusable // consumed concurrently
		}
		if _, err := h.D.Members.Membership(ctx, l.WorkspaceID, l.Email); kernel.IsNotFound(err) {
			return members.ErrLinkUnusable
		} else if err != nil {
			return err
		}
		if err := h.D.Members.MarkJoined(ctx, l.WorkspaceID, l.Email, now); err != nil {
			return err
		}
		s, token, err := members.NewSession(rand.Reader, l.Email, now)
		if err != nil {
			return err
		}
		if err := h.D.Sessions.Add(ctx, s); err != nil {
			return err
		}
		out = SignedIn{SessionToken: token, WorkspaceID: l.WorkspaceID, Email: l.Email}
		ctx = platform.WithActor(ctx, platform.Actor{Email: l.Email, Address: cmd.Address})
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: l.WorkspaceID, Action: "session.started",
			Target: l.Email, Detail: "signed in with a one-time link"})
	})
	if err != nil {
		return SignedIn{}, fmt.Errorf("sign in: %w", err)
	}
	return out, nil
}
