package modulelinks

import (
	"context"

	webhookcmd "github.com/creatorapi/creatorapi/application/webhooks/command"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/members"
)

// The workspaces module's published directory, adapted to the small port each consumer
// declares. Nobody else reads the workspaces table.

// MemberWorkspaces answers members.Workspaces: names and founders.
type MemberWorkspaces struct{ Dir query.Directory }

// Find returns the workspaces among ids.
func (m MemberWorkspaces) Find(ctx context.Context, ids []string) (map[string]members.Workspace, error) {
	found, err := m.Dir.Find(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make(map[string]members.Workspace, len(found))
	for id, w := range found {
		out[id] = members.Workspace{ID: w.ID, Name: w.Name, OwnerEmail: w.OwnerEmail, CreatedAt: w.CreatedAt}
	}
	return out, nil
}

// FoundedBy lists the workspaces email founded.
func (m MemberWorkspaces) FoundedBy(ctx context.Context, email string) ([]members.Workspace, error) {
	found, err := m.Dir.FoundedBy(ctx, email)
	if err != nil {
		return nil, err
	}
	out := make([]members.Workspace, len(found))
	for i, w := range found {
		out[i] = members.Workspace{ID: w.ID, Name: w.Name, OwnerEmail: w.OwnerEmail, CreatedAt: w.CreatedAt}
	}
	return out, nil
}

// WorkspaceOwners answers webhookcmd.Workspaces: whom to tell about a failing endpoint.
type WorkspaceOwners struct{ Dir query.Directory }

// Exists tells whether the workspace exists.
func (o WorkspaceOwners) Exists(ctx context.Context, id string) (bool, error) {
	return o.Dir.Exists(ctx, id)
}

// OwnerEmail returns the founder's address, or NotFound.
func (o WorkspaceOwners) OwnerEmail(ctx context.Context, id string) (string, error) {
	found, err := o.Dir.Find(ctx, []string{id})
	if err != nil {
		return "", err
	}
	w, ok := found[id]
	if !ok {
		return "", kernel.NotFound("workspace %s not found", id)
	}
	return w.OwnerEmail, nil
}

var (
	_ members.Workspaces    = MemberWorkspaces{}
	_ webhookcmd.Workspaces = WorkspaceOwners{}
)
