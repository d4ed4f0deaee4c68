package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// RemoveMember takes a person (or a pending invitation) out of a workspace.
type RemoveMember struct {
	WorkspaceID string
	Email       string
}

// RemoveMemberHandler handles RemoveMember.
type RemoveMemberHandler struct{ D Deps }

// Handle is for owners; the founding owner cannot be removed. Every session of the
// removed person ends in the same transaction, so their next request is signed out.
func (h RemoveMemberHandler) Handle(ctx context.Context, cmd RemoveMember) error {
	email, err := members.NormalizeEmail("email", cmd.Email)
	if err != nil {
		return err
	}
	err = h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		if err := RequireOwner(ctx, h.D.Members, cmd.WorkspaceID); err != nil {
			return err
		}
		m, err := h.D.Members.Membership(ctx, cmd.WorkspaceID, email)
		if err != nil {
			return err
		}
		list, err := h.D.Members.List(ctx, cmd.WorkspaceID)
		if err != nil {
			return err
		}
		if list[0].Email == m.Email {
			return kernel.Invalid("email", "the workspace's founding owner cannot be removed")
		}
		if err := h.D.Members.Remove(ctx, cmd.WorkspaceID, email); err != nil {
			return err
		}
		if err := h.D.Sessions.EndAllOf(ctx, email, h.D.Clock.Now()); err != nil {
			return err
		}
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "member.removed",
			Target: email, Detail: "was " + string(m.Role) + "; sessions ended"})
	})
	if err != nil {
		return fmt.Errorf("remove member: %w", err)
	}
	return nil
}

func alreadyMember(email string) error {
	return kernel.Invalid("email", "%s already belongs to this workspace", email)
}
