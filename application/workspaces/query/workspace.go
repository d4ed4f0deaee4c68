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
	CreatedAt  time.Time `json:"createdAt"`
}

// View maps the aggregate to its public shape.
func View(w *workspaces.Workspace) Workspace {
	return Workspace{ID: w.ID, Name: w.Name, OwnerEmail: w.OwnerEmail, CreatedAt: w.CreatedAt}
}

// GetWorkspaceHandler fetches one workspace.
type GetWorkspaceHandler struct {
	repo workspaces.Repository
}

// NewGetWorkspaceHandler builds the handler.
func NewGetWorkspaceHandler(repo workspaces.Repository) GetWorkspaceHandler {
	return GetWorkspaceHandler{repo: repo}
}

// Handle returns NotFound when id is unknown.
func (h GetWorkspaceHandler) Handle(ctx context.Context, id string) (Workspace, error) {
	w, err := h.repo.Get(ctx, id)
	if err != nil {
		return Workspace{}, err
	}
	return View(w), nil
}
