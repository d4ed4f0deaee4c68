package command

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Outbox sending: a request is leased for linkLease; one whose handling failed comes
// back after it.
const (
	linkLease = time.Minute
	linkBatch = 20
)

// ClaimLinkRequests leases the due requests of the sign-in page's outbox.
func (d Deps) ClaimLinkRequests(ctx context.Context, _ struct{}) ([]members.LinkRequest, error) {
	now := d.Clock.Now()
	return d.Requests.ClaimDue(ctx, now, now.Add(linkLease), linkBatch)
}

// AnswerLinkRequest handles one queued request in one transaction: nothing for an
// address without a joined workspace, nothing past the mail ceiling of the address
// (members.MailsPerEmail a window, whoever asked), otherwise a link to the first
// workspace the person joined, audited there. It returns the mail to send after the
// commit (none: empty To).
func (d Deps) AnswerLinkRequest(ctx context.Context, r members.LinkRequest) (Mail, error) {
	now := d.Clock.Now()
	if err := d.Requests.Done(ctx, r.ID, now); err != nil {
		return Mail{}, err
	}
	list, err := d.Members.Memberships(ctx, r.Email)
	if err != nil || len(list) == 0 {
		return Mail{}, err
	}
	sent, err := d.Links.CountIssued(ctx, r.Email, members.ForSignIn, now.Add(-members.RequestWindow))
	if err != nil || sent >= members.MailsPerEmail {
		return Mail{}, err
	}
	ms := list[0]
	l, token, err := members.NewLink(rand.Reader, members.ForSignIn, r.Email, ms.WorkspaceID, now)
	if err != nil {
		return Mail{}, err
	}
	if err := d.Links.Add(ctx, l); err != nil {
		return Mail{}, err
	}
	ctx = platform.WithActor(ctx, platform.Actor{Email: r.Email, Address: r.Address})
	if err := d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: ms.WorkspaceID, Action: "sign_in_link.sent",
		Target: r.Email, Detail: "requested on the sign-in page"}); err != nil {
		return Mail{}, err
	}
	return d.linkMail(r.Email, ms.WorkspaceName, token,
		"Someone (hopefully you) asked to sign in to the creatorapi dashboard.", "sign in to "+ms.WorkspaceName), nil
}
