package members

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Directory is the Repository over the member rows and the workspaces module's
// founders: e-mails compare in lower case, and a founder's own member row (an owner
// who invited their own address) never counts twice.
type Directory struct {
	Rows       Rows
	Workspaces Workspaces
}

var _ Repository = Directory{}

// Memberships lists email's workspaces by name, then id.
func (d Directory) Memberships(ctx context.Context, email string) ([]Membership, error) {
	email = strings.ToLower(email)
	founded, err := d.Workspaces.FoundedBy(ctx, email)
	if err != nil {
		return nil, err
	}
	out := make([]Membership, 0, len(founded))
	for _, w := range founded {
		out = append(out, Membership{WorkspaceID: w.ID, WorkspaceName: w.Name, Email: email, Role: Owner})
	}
	rows, err := d.Rows.OfPerson(ctx, email)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.WorkspaceID
	}
	ws, err := d.Workspaces.Find(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if w, ok := ws[r.WorkspaceID]; ok && !isFounder(w, email) && !r.Pending() {
			out = append(out, Membership{WorkspaceID: w.ID, WorkspaceName: w.Name, Email: email, Role: r.Role})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].WorkspaceName != out[j].WorkspaceName {
			return out[i].WorkspaceName < out[j].WorkspaceName
		}
		return out[i].WorkspaceID < out[j].WorkspaceID
	})
	return out, nil
}

// Membership returns email's role in workspaceID, or NotFound.
func (d Directory) Membership(ctx context.Context, workspaceID, email string) (Membership, error) {
	email = strings.ToLower(email)
	w, err := d.workspace(ctx, workspaceID)
	if err != nil {
		return Membership{}, err
	}
	m := Membership{WorkspaceID: w.ID, WorkspaceName: w.Name, Email: email, Role: Owner}
	if isFounder(w, email) {
		return m, nil
	}
	r, err := d.Rows.Get(ctx, workspaceID, email)
	if kernel.IsNotFound(err) || (err == nil && r.Pending()) {
		return Membership{}, kernel.NotFound("workspace %s not found", workspaceID)
	}
	if err != nil {
		return Membership{}, err
	}
	m.Role = r.Role
	return m, nil
}

// Invitation returns email's pending invitation to workspaceID, or NotFound.
func (d Directory) Invitation(ctx context.Context, workspaceID, email string) (Invitation, error) {
	email = strings.ToLower(email)
	w, err := d.workspace(ctx, workspaceID)
	if err != nil {
		return Invitation{}, err
	}
	r, err := d.Rows.Get(ctx, workspaceID, email)
	if err != nil {
		return Invitation{}, err
	}
	if !r.Pending() || isFounder(w, email) {
		return Invitation{}, kernel.NotFound("no pending invitation for %s", email)
	}
	return Invitation{Member: r, WorkspaceName: w.Name}, nil
}

// List returns the founder first, then the invited members.
func (d Directory) List(ctx context.Context, workspaceID string) ([]Member, error) {
	w, err := d.workspace(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	created := w.CreatedAt.UTC()
	founder := strings.ToLower(w.OwnerEmail)
	out := []Member{{WorkspaceID: w.ID, Email: founder, Role: Owner, InvitedAt: created, JoinedAt: &created, Founder: true}}
	rows, err := d.Rows.OfWorkspace(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r.Email != founder {
			out = append(out, r)
		}
	}
	return out, nil
}

// Add stores an invitation.
func (d Directory) Add(ctx context.Context, m *Member) error { return d.Rows.Add(ctx, m) }

// Remove deletes a member row.
func (d Directory) Remove(ctx context.Context, workspaceID, email string) error {
	return d.Rows.Remove(ctx, workspaceID, email)
}

// MarkJoined records the first sign-in after an invitation.
func (d Directory) MarkJoined(ctx context.Context, workspaceID, email string, at time.Time) error {
	return d.Rows.MarkJoined(ctx, workspaceID, email, at)
}

func (d Directory) workspace(ctx context.Context, id string) (Workspace, error) {
	ws, err := d.Workspaces.Find(ctx, []string{id})
	if err != nil {
		return Workspace{}, err
	}
	w, ok := ws[id]
	if !ok {
		return Workspace{}, kernel.NotFound("workspace %s not found", id)
	}
	return w, nil
}

func isFounder(w Workspace, email string) bool { return strings.ToLower(w.OwnerEmail) == email }
