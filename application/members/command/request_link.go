package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// RequestLink is someone typing an address on the sign-in page.
type RequestLink struct {
	Email   string
	Address string // the client address, for the per-address limit
}

// TooManyRequests is the answer once an address or a client asked too often.
type TooManyRequests struct{ RetryAfter time.Duration }

func (e *TooManyRequests) Error() string {
	return "too many sign-in requests; try again later"
}

// RequestLinkHandler handles RequestLink.
type RequestLinkHandler struct{ D Deps }

// Handle mails a link when the address belongs to someone, and answers the same
// (nil) when it does not, so that the page never reveals who has an account.
func (h RequestLinkHandler) Handle(ctx context.Context, cmd RequestLink) error {
	email, err := members.NormalizeEmail("email", cmd.Email)
	if err != nil {
		return err
	}
	now := h.D.Clock.Now()
	var token string
	var ms members.Membership
	err = h.D.Tx.WithinTx(ctx, func(ctx context.Context) error {
		byEmail, byAddress, err := h.D.Links.RecordRequest(ctx, email, cmd.Address, now, now.Add(-members.RequestWindow))
		if err != nil {
			return err
		}
		if byEmail > members.RequestsPerEmail || byAddress > members.RequestsPerAddress {
			return &TooManyRequests{RetryAfter: members.RequestWindow}
		}
		list, err := h.D.Members.Memberships(ctx, email)
		if err != nil || len(list) == 0 {
			return err
		}
		ms = list[0]
		var l *members.Link
		if l, token, err = members.NewLink(rand.Reader, email, ms.WorkspaceID, now); err != nil {
			return err
		}
		if err := h.D.Links.Add(ctx, l); err != nil {
			return err
		}
		ctx = platform.WithActor(ctx, platform.Actor{Email: email, Address: cmd.Address})
		return h.D.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: ms.WorkspaceID, Action: "sign_in_link.sent",
			Target: email, Detail: "requested on the sign-in page"})
	})
	if err != nil {
		return fmt.Errorf("request sign-in link: %w", err)
	}
	if token == "" {
		return nil
	}
	return h.D.sendLink(ctx, email, ms.WorkspaceName, token, "Someone (hopefully you) asked to sign in to the creatorapi dashboard.")
}
