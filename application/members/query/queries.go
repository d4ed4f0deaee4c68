// Package query reads who belongs to a workspace and who is signed in.
package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Session is the signed-in person behind a cookie.
type Session struct {
	Email     string
	CSRFToken string
}

// SessionHandler checks a session token.
type SessionHandler struct {
	sessions members.Sessions
	clock    platform.Clock
}

// NewSessionHandler builds the handler.
func NewSessionHandler(s members.Sessions, c platform.Clock) SessionHandler {
	return SessionHandler{sessions: s, clock: c}
}

// Handle returns Unauthenticated for an unknown, ended, idle or too old session, and
// moves the idle clock (at most one write a minute).
func (h SessionHandler) Handle(ctx context.Context, token string) (Session, error) {
	s, err := h.sessions.Get(ctx, members.HashToken(token))
	if err != nil {
		return Session{}, err
	}
	now := h.clock.Now()
	if !s.Live(now) {
		return Session{}, kernel.Unauthenticated("session expired; sign in again")
	}
	if s.Touch(now) {
		if err := h.sessions.Touch(ctx, s); err != nil {
			return Session{}, err
		}
	}
	return Session{Email: s.Email, CSRFToken: s.CSRFToken}, nil
}

// MembershipsHandler lists a person's workspaces (the switcher).
type MembershipsHandler struct{ Repo members.Repository }

// Handle lists by workspace name.
func (h MembershipsHandler) Handle(ctx context.Context, email string) ([]members.Membership, error) {
	return h.Repo.Memberships(ctx, email)
}

// MembershipHandler tells a person's role in one workspace.
type MembershipHandler struct{ Repo members.Repository }

// Handle returns NotFound when email does not belong to workspaceID: a stranger's
// view of a workspace is the same as of one that does not exist.
func (h MembershipHandler) Handle(ctx context.Context, workspaceID, email string) (members.Membership, error) {
	return h.Repo.Membership(ctx, workspaceID, email)
}

// ListMembersHandler lists the people of a workspace, for owners.
type ListMembersHandler struct{ Repo members.Repository }

// Handle returns Forbidden for developers.
func (h ListMembersHandler) Handle(ctx context.Context, workspaceID string) ([]members.Member, error) {
	if err := command.RequireOwner(ctx, h.Repo, workspaceID); err != nil {
		return nil, err
	}
	return h.Repo.List(ctx, workspaceID)
}
