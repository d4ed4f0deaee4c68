package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// IssueLink makes a sign-in link for the owner of a workspace (or one of its members)
// without sending it: `creatorapi dashboard link` and `demo` print it.
type IssueLink struct {
	WorkspaceID string
	Email       string // empty: the workspace's founding owner
}

// IssuedLink is the link to open.
type IssuedLink struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// IssueLinkHandler handles IssueLink.
type IssueLinkHandler struct{ D Deps }

// Handle returns NotFound when the workspace is unknown or the address is no member.
func (h IssueLinkHandler) Handle(ctx context.Context, cmd IssueLink) (IssuedLink, error) {
	now := h.D.Clock.Now()
	var out IssuedLink
	err := h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		email := cmd.Email
		if email == "" {
			list, err := h.D.Members.List(ctx, cmd.WorkspaceID)
			if err != nil {
				return err
			}
			email = list[0].Email // the founder comes first
		}
		email, err := members.NormalizeEmail("email", email)
		if err != nil {
			return err
		}
		if _, err := h.D.Members.Membership(ctx, cmd.WorkspaceID, email); err != nil {
			return err
		}
		l, token, err := members.NewLink(rand.Reader, email, cmd.WorkspaceID, now)
		if err != nil {
			return err
		}
		if err := h.D.Links.Add(ctx, l); err != nil {
			return err
		}
		out = IssuedLink{URL: h.D.LinkURL(token), ExpiresAt: l.ExpiresAt}
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "sign_in_link.issued",
			Target: email, Detail: "issued by an operator"})
	})
	if err != nil {
		return IssuedLink{}, fmt.Errorf("issue sign-in link: %w", err)
	}
	return out, nil
}
