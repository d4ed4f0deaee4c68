// Package command changes who may use a workspace's dashboard and how they sign in.
package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Mailer sends one plain-text e-mail.
type Mailer interface {
	Send(ctx context.Context, to, subject, body string) error
}

// Deps are the ports the module needs.
type Deps struct {
	Tx        platform.Transactor
	Members   members.Repository
	Links     members.Links
	Sessions  members.Sessions
	Audit     platform.AuditTrail
	Mailer    Mailer
	Clock     platform.Clock
	PublicURL string // CREATORAPI_PUBLIC_URL, the base of the links sent
}

// LinkURL is the page a sign-in token opens.
func (d Deps) LinkURL(token string) string {
	return d.PublicURL + "/dashboard/sign-in/link?token=" + token
}

// RequireOwner lets operators (no person in the context) and the workspace's owners
// through; a developer gets Forbidden, a stranger NotFound.
func RequireOwner(ctx context.Context, repo members.Repository, workspaceID string) error {
	actor := platform.ActorFrom(ctx)
	if actor.Email == "" {
		return nil
	}
	m, err := repo.Membership(ctx, workspaceID, actor.Email)
	if err != nil {
		return err
	}
	if !m.Role.ManagesPeople() {
		return kernel.Forbidden("only owners manage people and read the audit log")
	}
	return nil
}

// sendLink mails a sign-in link; called after the link's transaction committed.
func (d Deps) sendLink(ctx context.Context, to, workspaceName, token, intro string) error {
	body := fmt.Sprintf("%s\n\nOpen this link within 15 minutes to sign in to %s:\n\n%s\n\n"+
		"The link works once. If you did not expect this e-mail, ignore it: nothing happens until the link is used.\n",
		intro, workspaceName, d.LinkURL(token))
	if err := d.Mailer.Send(ctx, to, "Your sign-in link for "+workspaceName, body); err != nil {
		return fmt.Errorf("send sign-in link: %w", err)
	}
	return nil
}
