// Package members is the application service of the dashboard's people: sign-in links,
// sessions, invitations and removals. The dashboard, the CLI and tests drive it.
package members

import (
	"github.com/creatorapi/creatorapi/application/members/command"
	"github.com/creatorapi/creatorapi/application/members/query"
)

// Application groups the module's use cases.
type Application struct {
	Commands Commands
	Queries  Queries
}

// Commands change state.
type Commands struct {
	RequestLink  command.RequestLinkHandler
	IssueLink    command.IssueLinkHandler
	SignIn       command.SignInHandler
	SignOut      command.SignOutHandler
	Invite       command.InviteHandler
	RemoveMember command.RemoveMemberHandler
}

// Queries read state.
type Queries struct {
	Session     query.SessionHandler
	Memberships query.MembershipsHandler
	Membership  query.MembershipHandler
	ListMembers query.ListMembersHandler
}

// New wires the use cases to their ports.
func New(d command.Deps) Application {
	return Application{
		Commands: Commands{
			RequestLink:  command.RequestLinkHandler{D: d},
			IssueLink:    command.IssueLinkHandler{D: d},
			SignIn:       command.SignInHandler{D: d},
			SignOut:      command.SignOutHandler{D: d},
			Invite:       command.InviteHandler{D: d},
			RemoveMember: command.RemoveMemberHandler{D: d},
		},
		Queries: Queries{
			Session:     query.NewSessionHandler(d.Sessions, d.Clock),
			Memberships: query.MembershipsHandler{Repo: d.Members},
			Membership:  query.MembershipHandler{Repo: d.Members},
			ListMembers: query.ListMembersHandler{Repo: d.Members},
		},
	}
}
