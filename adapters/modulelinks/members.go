package modulelinks

import (
	"context"

	"github.com/creatorapi/creatorapi/application/audit"
	"github.com/creatorapi/creatorapi/application/members"
	membercmd "github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/platform"
	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	domainwebhooks "github.com/creatorapi/creatorapi/domain/webhooks"
)

// OwnerAccess answers audit.Access with the members module: only owners read the log.
type OwnerAccess struct{ App members.Application }

// RequireOwner returns Forbidden for developers, NotFound for strangers.
func (o OwnerAccess) RequireOwner(ctx context.Context, workspaceID string) error {
	_, err := o.App.Queries.ListMembers.Handle(ctx, workspaceID)
	return err
}

// NoticeMailer answers the members module's Mailer with the webhooks module's notice
// mailer (SMTP, or the data folder and a log line).
type NoticeMailer struct {
	Mailer webhookcmd.Mailer
	IDs    platform.IDs
	Clock  platform.Clock
}

// Send mails one message as a notice.
func (n NoticeMailer) Send(ctx context.Context, to, subject, body string) error {
	return n.Mailer.Send(ctx, domainwebhooks.Notice{ID: n.IDs.New("msg"), To: to, Subject: subject, Body: body, CreatedAt: n.Clock.Now()})
}

// The adapters satisfy the consumers' ports.
var (
	_ audit.Access     = OwnerAccess{}
	_ membercmd.Mailer = NoticeMailer{}
)
