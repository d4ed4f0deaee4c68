package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// SignOut ends the session of the cookie.
type SignOut struct {
	SessionToken string
	WorkspaceID  string // where the person signed out from, for the audit log; may be empty
}

// SignOutHandler handles SignOut.
type SignOutHandler struct{ D Deps }

// Handle ends the session; the audit entry goes to the workspace the person was in.
func (h SignOutHandler) Handle(ctx context.Context, cmd SignOut) error {
	err := h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		hash := members.HashToken(cmd.SessionToken)
		s, err := h.D.Sessions.Get(ctx, hash)
		if err != nil {
			return err
		}
		if err := h.D.Sessions.End(ctx, hash, h.D.Clock.Now()); err != nil {
			return err
		}
		if cmd.WorkspaceID == "" {
			return nil
		}
		if _, err := h.D.Members.Membership(ctx, cmd.WorkspaceID, s.Email); err != nil {
			return nil // not theirs: nothing to record there
		}
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "session.ended",
			Target: s.Email, Detail: "signed out"})
	})
	if err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return nil
}
