package command

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Invite adds a person with a role and mails them a sign-in link.
type Invite struct {
	WorkspaceID string
	Email       string
	Role        string
}

// InviteHandler handles Invite.
type InviteHandler struct{ D Deps }

// Handle is for owners (and operators); the invitation stays pending until the first sign-in.
func (h InviteHandler) Handle(ctx context.Context, cmd Invite) (members.Member, error) {
	role, err := members.ParseRole(cmd.Role)
	if err != nil {
		return members.Member{}, err
	}
	now := h.D.Clock.Now()
	actor := platform.ActorFrom(ctx)
	m, err := members.Invite(cmd.WorkspaceID, cmd.Email, role, actor.Who(), now)
	if err != nil {
		return members.Member{}, err
	}
	var token, workspaceName string
	err = h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		if err := RequireOwner(ctx, h.D.Members, cmd.WorkspaceID); err != nil {
			return err
		}
		list, err := h.D.Members.List(ctx, cmd.WorkspaceID)
		if err != nil {
			return err
		}
		for _, existing := range list {
			if existing.Email == m.Email {
				return alreadyMember(m.Email)
			}
		}
		if err := h.D.Members.Add(ctx, m); err != nil {
			return err
		}
		own, err := h.D.Members.Membership(ctx, cmd.WorkspaceID, m.Email)
		if err != nil {
			return err
		}
		workspaceName = own.WorkspaceName
		var l *members.Link
		if l, token, err = members.NewLink(rand.Reader, m.Email, cmd.WorkspaceID, now); err != nil {
			return err
		}
		if err := h.D.Links.Add(ctx, l); err != nil {
			return err
		}
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "member.invited",
			Target: m.Email, Detail: "as " + string(role)})
	})
	if err != nil {
		return members.Member{}, fmt.Errorf("invite: %w", err)
	}
	intro := fmt.Sprintf("%s invited you to %s as %s.", actor.Who(), workspaceName, role)
	if err := h.D.sendLink(ctx, m.Email, workspaceName, token, intro); err != nil {
		return *m, err
	}
	return *m, nil
}
