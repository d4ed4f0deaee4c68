// Package query reads who belongs to a workspace and who is signed in. Each use case is
// a method of Reads, decorated in app.go (platform.Query: observed).
package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Reads are the ports the queries use.
type Reads struct {
	Members  members.Repository
	Links    members.Links
	Sessions members.Sessions
	Clock    platform.Clock
}

// Session is the signed-in person behind a cookie.
type Session struct {
	Email     string
	CSRFToken string
}

// Session returns Unauthenticated for an unknown, ended, idle or too old session, and
// moves the idle clock (at most one write a minute).
func (r Reads) Session(ctx context.Context, token string) (Session, error) {
	s, err := r.Sessions.Get(ctx, members.HashToken(token))
	if err != nil {
		return Session{}, err
	}
	now := r.Clock.Now()
	if !s.Live(now) {
		return Session{}, kernel.Unauthenticated("session expired; sign in again")
	}
	if s.Touch(now) {
		if err := r.Sessions.Touch(ctx, s); err != nil {
			return Session{}, err
		}
	}
	return Session{Email: s.Email, CSRFToken: s.CSRFToken}, nil
}

// Memberships lists a person's workspaces by name (the switcher): founded and joined,
// never a pending invitation.
func (r Reads) Memberships(ctx context.Context, email string) ([]members.Membership, error) {
	return r.Members.Memberships(ctx, email)
}

// MembershipOf asks for a person's role in one workspace.
type MembershipOf struct {
	WorkspaceID string
	Email       string
}

// Membership returns NotFound when the person does not belong to the workspace: a
// stranger's view of a workspace is the same as of one that does not exist.
func (r Reads) Membership(ctx context.Context, q MembershipOf) (members.Membership, error) {
	return r.Members.Membership(ctx, q.WorkspaceID, q.Email)
}

// ListMembers lists the people of a workspace, for owners; Forbidden for developers.
func (r Reads) ListMembers(ctx context.Context, workspaceID string) ([]members.Member, error) {
	if err := command.RequireOwner(ctx, r.Members, workspaceID); err != nil {
		return nil, err
	}
	return r.Members.List(ctx, workspaceID)
}

// LinkPage is what a link's page shows before its button is pressed.
type LinkPage struct {
	Invitation *members.Invitation // nil for a sign-in link (or one that no longer works)
}

// LinkPage reads, without using it, what a link opens. A link that is unknown, used or
// expired shows as a sign-in link: its button then answers that it no longer works.
func (r Reads) LinkPage(ctx context.Context, token string) (LinkPage, error) {
	l, err := r.Links.Get(ctx, members.HashToken(token))
	if err == members.ErrLinkUnusable || (err == nil && l.Purpose != members.ForInvitation) {
		return LinkPage{}, nil
	}
	if err != nil {
		return LinkPage{}, err
	}
	inv, err := r.Members.Invitation(ctx, l.WorkspaceID, l.Email)
	if kernel.IsNotFound(err) {
		return LinkPage{}, nil
	}
	if err != nil {
		return LinkPage{}, err
	}
	return LinkPage{Invitation: &inv}, nil
}
