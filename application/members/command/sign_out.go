package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// SignOut ends the session of the cookie.
type SignOut struct {
	SessionToken string
	WorkspaceID  string // where the person signed out from, for the audit log; may be empty
}

// SignOut ends the session; the audit entry goes to the workspace the person was in
// when they belong to it.
func (d Deps) SignOut(ctx context.Context, cmd SignOut) (struct{}, error) {
	hash := members.HashToken(cmd.SessionToken)
	s, err := d.Sessions.Get(ctx, hash)
	if err != nil {
		return struct{}{}, err
	}
	if err := d.Sessions.End(ctx, hash, d.Clock.Now()); err != nil {
		return struct{}{}, err
	}
	if cmd.WorkspaceID == "" {
		return struct{}{}, nil
	}
	if _, err := d.Members.Membership(ctx, cmd.WorkspaceID, s.Email); err != nil {
		return struct{}{}, nil // not theirs: nothing to record there
	}
	return struct{}{}, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "session.ended",
		Target: s.Email, Detail: "signed out"})
}
