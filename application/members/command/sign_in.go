package command

import (
	"context"
	"crypto/rand"
	"time"

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

// SignIn refuses a link that is unknown, expired or used with one error. A sign-in
// link needs a membership (a pending invitation is none); an invitation link needs its
// pending invitation and accepts it: the invitee's click on the link mailed to them is
// the only way in. Both are audited in the link's workspace, where the person now is.
func (d Deps) SignIn(ctx context.Context, cmd SignIn) (SignedIn, error) {
	now := d.Clock.Now()
	l, err := d.Links.Get(ctx, members.HashToken(cmd.Token))
	if err != nil {
		return SignedIn{}, err
	}
	if err := l.Use(now); err != nil {
		return SignedIn{}, err
	}
	if used, err := d.Links.SaveUse(ctx, l); err != nil {
		return SignedIn{}, err
	} else if !used {
		return SignedIn{}, members.ErrLinkUnusable // consumed concurrently
	}
	ctx = platform.WithActor(ctx, platform.Actor{Email: l.Email, Address: cmd.Address})
	if err := d.admit(ctx, l, now); err != nil {
		return SignedIn{}, err
	}
	s, token, err := members.NewSession(rand.Reader, l.Email, now)
	if err != nil {
		return SignedIn{}, err
	}
	if err := d.Sessions.Add(ctx, s); err != nil {
		return SignedIn{}, err
	}
	out := SignedIn{SessionToken: token, WorkspaceID: l.WorkspaceID, Email: l.Email}
	return out, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: l.WorkspaceID, Action: "session.started",
		Target: l.Email, Detail: "signed in with a one-time link"})
}

// admit checks that the link's person may enter its workspace, accepting the invitation
// of an invitation link.
func (d Deps) admit(ctx context.Context, l *members.Link, now time.Time) error {
	if l.Purpose != members.ForInvitation {
		_, err := d.Members.Membership(ctx, l.WorkspaceID, l.Email)
		if kernel.IsNotFound(err) {
			return members.ErrLinkUnusable
		}
		return err
	}
	inv, err := d.Members.Invitation(ctx, l.WorkspaceID, l.Email)
	if kernel.IsNotFound(err) {
		return members.ErrLinkUnusable // removed, or joined already
	}
	if err != nil {
		return err
	}
	if err := d.Members.MarkJoined(ctx, l.WorkspaceID, l.Email, now); err != nil {
		return err
	}
	return d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: l.WorkspaceID, Action: "member.joined",
		Target: l.Email, Detail: "accepted the invitation as " + string(inv.Role)})
}
