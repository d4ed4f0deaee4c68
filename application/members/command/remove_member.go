package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// RemoveMember takes a person (or a pending invitation) out of a workspace.
type RemoveMember struct {
	WorkspaceID string
	Email       string
}

// RemoveMember is for owners; the founding owner cannot be removed. It deletes the
// membership: every request to the workspace checks it, so the person's next one there
// is a 404, while their session goes on in the workspaces they still belong to.
func (d Deps) RemoveMember(ctx context.Context, cmd RemoveMember) (struct{}, error) {
	email, err := members.NormalizeEmail("email", cmd.Email)
	if err != nil {
		return struct{}{}, err
	}
	if err := RequireOwner(ctx, d.Members, cmd.WorkspaceID); err != nil {
		return struct{}{}, err
	}
	list, err := d.Members.List(ctx, cmd.WorkspaceID)
	if err != nil {
		return struct{}{}, err
	}
	if list[0].Email == email {
		return struct{}{}, kernel.Invalid("email", "the workspace's founding owner cannot be removed")
	}
	if err := d.Members.Remove(ctx, cmd.WorkspaceID, email); err != nil {
		return struct{}{}, err
	}
	var role members.Role
	for _, m := range list {
		if m.Email == email {
			role = m.Role
		}
	}
	return struct{}{}, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "member.removed",
		Target: email, Detail: "was " + string(role) + "; access to this workspace ended"})
}
