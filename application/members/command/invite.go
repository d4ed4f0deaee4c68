package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Invite adds a person with a role and mails them an invitation link.
type Invite struct {
	WorkspaceID string
	Email       string
	Role        string
}

// Invited is the stored invitation and the mail that carries its link.
type Invited struct {
	Member members.Member
	Mail   Mail
}

// Invite is for owners (and operators). The invitation stays pending until the invitee
// accepts it with the mailed link (SignIn with an invitation link); nothing else joins
// them. At most members.PendingPerWorkspace pending invitations per workspace, and
// members.InvitationsPerEmail invitations to one address per day from all workspaces
// (the links count, so inviting and removing in a loop mails no more).
func (d Deps) Invite(ctx context.Context, cmd Invite) (Invited, error) {
	role, err := members.ParseRole(cmd.Role)
	if err != nil {
		return Invited{}, err
	}
	now := d.Clock.Now()
	actor := platform.ActorFrom(ctx)
	m, err := members.Invite(cmd.WorkspaceID, cmd.Email, role, actor.Who(), now)
	if err != nil {
		return Invited{}, err
	}
	if err := RequireOwner(ctx, d.Members, cmd.WorkspaceID); err != nil {
		return Invited{}, err
	}
	list, err := d.Members.List(ctx, cmd.WorkspaceID)
	if err != nil {
		return Invited{}, err
	}
	if err := d.invitable(ctx, list, m.Email, now); err != nil {
		return Invited{}, err
	}
	if err := d.Members.Add(ctx, m); err != nil {
		return Invited{}, err
	}
	l, token, err := members.NewLink(rand.Reader, members.ForInvitation, m.Email, cmd.WorkspaceID, now)
	if err != nil {
		return Invited{}, err
	}
	if err := d.Links.Add(ctx, l); err != nil {
		return Invited{}, err
	}
	if err := d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: cmd.WorkspaceID, Action: "member.invited",
		Target: m.Email, Detail: "as " + string(role)}); err != nil {
		return Invited{}, err
	}
	inv, err := d.Members.Invitation(ctx, cmd.WorkspaceID, m.Email)
	if err != nil {
		return Invited{}, err
	}
	name := inv.WorkspaceName
	intro := fmt.Sprintf("%s invited you to %s as %s.", actor.Who(), name, role)
	return Invited{Member: *m, Mail: d.linkMail(m.Email, name, token, intro, "see the invitation and accept it")}, nil
}

// invitable refuses a present member and the limits' excess.
func (d Deps) invitable(ctx context.Context, list []members.Member, email string, now time.Time) error {
	pending := 0
	for _, existing := range list {
		if existing.Email == email {
			return alreadyMember(email)
		}
		if existing.Pending() {
			pending++
		}
	}
	if pending >= members.PendingPerWorkspace {
		return kernel.Invalid("email", "this workspace has %d pending invitations, the most it may have: remove one first", pending)
	}
	n, err := d.Links.CountIssued(ctx, email, members.ForInvitation, now.Add(-members.InvitationWindow))
	if err != nil {
		return err
	}
	if n >= members.InvitationsPerEmail {
		return kernel.Invalid("email", "%s has received %d invitations today, the most an address may: try again tomorrow", email, n)
	}
	return nil
}

func alreadyMember(email string) error {
	return kernel.Invalid("email", "%s already belongs to this workspace", email)
}
