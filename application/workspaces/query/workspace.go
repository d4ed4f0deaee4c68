// Package query answers questions about workspaces.
package query

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Workspace is how a workspace is shown to operators.
type Workspace struct {
	ID         string    `json:"id"`
	Name       string    `json:"name"`
	OwnerEmail string    `json:"ownerEmail"`
	Livemode   bool      `json:"livemode"`
	SandboxOf  string    `json:"sandboxOf,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
}

// View maps the aggregate to its public shape.
func View(w *workspaces.Workspace) Workspace {
	return Workspace{ID: w.ID, Name: w.Name, OwnerEmail: w.OwnerEmail, Livemode: w.Livemode(), SandboxOf: w.SandboxOf, CreatedAt: w.CreatedAt}
}

// Reads answers the module's own queries.
type Reads struct {
	Repo workspaces.Repository
}

// GetWorkspace returns NotFound when id is unknown.
func (r Reads) GetWorkspace(ctx context.Context, id string) (Workspace, error) {
	w, err := r.Repo.Get(ctx, id)
	if err != nil {
		return Workspace{}, err
	}
	return View(w), nil
}
