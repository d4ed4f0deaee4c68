// Package command changes who may use a workspace's dashboard and how they sign in. Each
// use case is a method of Deps, decorated in app.go (platform.Command: observed, one
// transaction); the mail of a use case goes after its commit.
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
	platform.Kit // Tx, IDs, Clock, Observer (no events)
	Members      members.Repository
	Links        members.Links
	Requests     members.LinkRequests // the sign-in page's outbox
	Sessions     members.Sessions
	Audit        platform.AuditTrail
	Mailer       Mailer
	PublicURL    string // CREATORAPI_PUBLIC_URL, the base of the links sent
}

// LinkURL is the page a sign-in or invitation token opens.
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

// Mail is one message a use case sends once its transaction committed.
type Mail struct {
	To, Subject, Body string
}

// linkMail is the mail of a link to workspaceName.
func (d Deps) linkMail(to, workspaceName, token, intro, action string) Mail {
	body := fmt.Sprintf("%s\n\nOpen this link within 15 minutes to %s:\n\n%s\n\n"+
		"The link works once. If you did not expect this e-mail, ignore it: nothing happens until the link is used.\n",
		intro, action, d.LinkURL(token))
	return Mail{To: to, Subject: "Your sign-in link for " + workspaceName, Body: body}
}
