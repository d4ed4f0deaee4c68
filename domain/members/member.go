// Package members holds the people of a workspace and how they sign in to the dashboard:
// roles, invitations, one-time sign-in links and server-side sessions.
package members

import (
	"context"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Role is what a person may do in a workspace.
type Role string

// The two roles of the contract: owners do everything, developers keys and webhooks.
const (
	Owner     Role = "owner"
	Developer Role = "developer"
)

// ParseRole accepts "owner" or "developer".
func ParseRole(s string) (Role, error) {
	switch r := Role(strings.TrimSpace(s)); r {
	case Owner, Developer:
		return r, nil
	}
	return "", kernel.Invalid("role", "role must be owner or developer")
}

// ManagesPeople tells whether the role may invite and remove members.
func (r Role) ManagesPeople() bool { return r == Owner }

// Member is a person the owner invited. The workspace's own ownerEmail is an owner
// without a Member row (Founder marks it in listings).
type Member struct {
	WorkspaceID string
	Email       string
	Role        Role
	InvitedBy   string
	InvitedAt   time.Time
	JoinedAt    *time.Time // nil while the invitation is pending
	Founder     bool       // the workspace's ownerEmail: cannot be removed
}

// Pending tells whether the person has not signed in since the invitation.
func (m Member) Pending() bool { return !m.Founder && m.JoinedAt == nil }

// NormalizeEmail validates an address and folds it to lower case: people are found by it.
func NormalizeEmail(field, email string) (string, error) {
	e, err := kernel.NormalizeEmail(field, email)
	if err != nil {
		return "", err
	}
	return strings.ToLower(e), nil
}

// Invite builds the member row of an invitation.
func Invite(workspaceID, email string, role Role, invitedBy string, now time.Time) (*Member, error) {
	email, err := NormalizeEmail("email", email)
	if err != nil {
		return nil, err
	}
	return &Member{WorkspaceID: workspaceID, Email: email, Role: role, InvitedBy: invitedBy, InvitedAt: now}, nil
}

// Invitation is a pending member row with the name of its workspace.
type Invitation struct {
	Member
	WorkspaceName string
}

// Membership is one workspace a person belongs to, with their role there.
type Membership struct {
	WorkspaceID   string
	WorkspaceName string
	Email         string
	Role          Role
}

// Repository answers who belongs to which workspace: the founder (the workspace's
// ownerEmail, read through Workspaces) and the member rows (Rows). Directory is the
// implementation; the adapters implement Rows.
type Repository interface {
	Invitations
	// Memberships lists the workspaces email belongs to (as founder or joined member),
	// by name; a pending invitation is no membership.
	Memberships(ctx context.Context, email string) ([]Membership, error)
	// Membership returns NotFound unless email belongs to workspaceID (as founder or
	// joined member).
	Membership(ctx context.Context, workspaceID, email string) (Membership, error)
	// Invitation returns email's pending invitation to workspaceID, or NotFound.
	Invitation(ctx context.Context, workspaceID, email string) (Invitation, error)
	// List returns the founder first, then members by invitation time.
	List(ctx context.Context, workspaceID string) ([]Member, error)
}

// Invitations are the writes of member rows, the same through Repository and Rows: the
// founder has no row, so Directory hands them to its Rows as they are.
type Invitations interface {
	// Add returns kernel Invalid (field email) when the person already has a row.
	Add(ctx context.Context, m *Member) error
	// Remove returns NotFound when email is no member row of workspaceID.
	Remove(ctx context.Context, workspaceID, email string) error
	// MarkJoined ends the pending state of email's invitation to workspaceID (sets the
	// row's joinedAt unless it is set).
	MarkJoined(ctx context.Context, workspaceID, email string, at time.Time) error
}

// Rows stores the member rows of invitations; the founder has none that counts.
type Rows interface {
	Invitations
	// OfPerson lists email's rows in every workspace.
	OfPerson(ctx context.Context, email string) ([]Member, error)
	// Get returns email's row in workspaceID, or NotFound.
	Get(ctx context.Context, workspaceID, email string) (Member, error)
	// OfWorkspace lists a workspace's rows by invitation time, then e-mail.
	OfWorkspace(ctx context.Context, workspaceID string) ([]Member, error)
}

// Workspace is what members know of a workspace: its name and its founder.
type Workspace struct {
	ID         string
	Name       string
	OwnerEmail string
	CreatedAt  time.Time
}

// Workspaces is what members read from the workspaces module.
type Workspaces interface {
	// Find returns the workspaces among ids; unknown ids are absent.
	Find(ctx context.Context, ids []string) (map[string]Workspace, error)
	// FoundedBy lists the workspaces whose ownerEmail is email (case-insensitively).
	FoundedBy(ctx context.Context, email string) ([]Workspace, error)
}
