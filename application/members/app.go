// Package members is the application service of the dashboard's people: sign-in links,
// sessions, invitations and removals. The dashboard, the CLI and tests drive it.
package members

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/members/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/members"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	RequestLink  platform.Handler[command.RequestLink, struct{}]
	IssueLink    platform.Handler[command.IssueLink, command.IssuedLink]
	SignIn       platform.Handler[command.SignIn, command.SignedIn]
	SignOut      platform.Handler[command.SignOut, struct{}]
	Invite       platform.Handler[command.Invite, members.Member]
	RemoveMember platform.Handler[command.RemoveMember, struct{}]
	// SendLinks answers the sign-in page's queued requests (the mailer worker runs it);
	// it returns how many it handled.
	SendLinks platform.Handler[struct{}, int]
}

// Queries read state.
type Queries struct {
	Session     platform.Handler[string, query.Session]
	Memberships platform.Handler[string, []members.Membership]
	Membership  platform.Handler[query.MembershipOf, members.Membership]
	ListMembers platform.Handler[string, []members.Member]
	LinkPage    platform.Handler[string, query.LinkPage]
}

// New wires the use cases to their ports, each decorated in the one handler shape
// (transaction for commands, observation, error wrapping). Invite and SendLinks send
// their mail after their transaction committed.
func New(d command.Deps) Application {
	reads := query.Reads{Members: d.Members, Links: d.Links, Sessions: d.Sessions, Clock: d.Clock}
	return Application{
		Commands: Commands{
			RequestLink:  platform.Command("request sign-in link", d.Tx, d.Observer, d.RequestLink),
			IssueLink:    platform.Command("issue sign-in link", d.Tx, d.Observer, d.IssueLink),
			SignIn:       platform.Command("sign in", d.Tx, d.Observer, d.SignIn),
			SignOut:      platform.Command("sign out", d.Tx, d.Observer, d.SignOut),
			Invite:       mailed(d, platform.Command("invite", d.Tx, d.Observer, d.Invite)),
			RemoveMember: platform.Command("remove member", d.Tx, d.Observer, d.RemoveMember),
			SendLinks: sendLinks(d, platform.Query("claim sign-in requests", d.Observer, d.ClaimLinkRequests),
				platform.Command("answer sign-in request", d.Tx, d.Observer, d.AnswerLinkRequest)),
		},
		Queries: Queries{
			Session:     platform.Query("dashboard session", d.Observer, reads.Session),
			Memberships: platform.Query("memberships", d.Observer, reads.Memberships),
			Membership:  platform.Query("membership", d.Observer, reads.Membership),
			ListMembers: platform.Query("list members", d.Observer, reads.ListMembers),
			LinkPage:    platform.Query("sign-in link page", d.Observer, reads.LinkPage),
		},
	}
}

// mailed sends the invitation's mail once its transaction committed.
func mailed(d command.Deps, invite platform.Handler[command.Invite, command.Invited]) platform.Handler[command.Invite, members.Member] {
	return platform.HandlerFunc[command.Invite, members.Member](func(ctx context.Context, cmd command.Invite) (members.Member, error) {
		inv, err := invite.Handle(ctx, cmd)
		if err != nil {
			return members.Member{}, err
		}
		if err := d.Mailer.Send(ctx, inv.Mail.To, inv.Mail.Subject, inv.Mail.Body); err != nil {
			return inv.Member, fmt.Errorf("invite: send mail: %w", err)
		}
		return inv.Member, nil
	})
}

// sendLinks answers each claimed request in its own transaction, then sends its mail.
// A request is marked done with its answer: a mail that fails is not sent again (the
// person asks again); one request's failure never holds back the others. Runs of one
// process take turns, so a run that finds nothing due knows that every request claimed
// before it was mailed (tests read the mail right after).
func sendLinks(d command.Deps, claim platform.Handler[struct{}, []members.LinkRequest],
	answer platform.Handler[members.LinkRequest, command.Mail]) platform.Handler[struct{}, int] {
	var turn sync.Mutex
	return platform.HandlerFunc[struct{}, int](func(ctx context.Context, _ struct{}) (int, error) {
		turn.Lock()
		defer turn.Unlock()
		due, err := claim.Handle(ctx, struct{}{})
		if err != nil {
			return 0, err
		}
		var errs []error
		for _, r := range due {
			m, err := answer.Handle(ctx, r)
			if err == nil && m.To != "" {
				err = d.Mailer.Send(ctx, m.To, m.Subject, m.Body)
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("sign-in request %s: %w", r.ID, err))
			}
		}
		return len(due), errors.Join(errs...)
	})
}
