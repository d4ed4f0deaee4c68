package command

import (
	"context"
	"crypto/rand"
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

// IssueLink returns NotFound when the workspace is unknown or the address is no
// member of it (a pending invitation is none).
func (d Deps) IssueLink(ctx context.Context, cmd IssueLink) (IssuedLink, error) {
	now := d.Clock.Now()
	email := cmd.Email
	if email == "" {
		list, err := d.Members.List(ctx, cmd.WorkspaceID)
		if err != nil {
			return IssuedLink{}, err
		}
		email = list[0].Email // the founder comes first
	}
	email, err := members.NormalizeEmail("email", email)
	if err != nil {
		return IssuedLink{}, err
	}
	if _, err := d.Members.Membership(ctx, cmd.WorkspaceID, email); err != nil {
		return IssuedLink{}, err
	}
	l, token, err := members.NewLink(rand.Reader, members.ForSignIn, email, cmd.WorkspaceID, now)
	if err != nil {
		return IssuedLink{}, err
	}
	if err := d.Links.Add(ctx, l); err != nil {
		return IssuedLink{}, err
	}
	out := IssuedLink{URL: d.LinkURL(token), ExpiresAt: l.ExpiresAt}
	return out, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "sign_in_link.issued",
		Target: email, Detail: "issued by an operator"})
}
