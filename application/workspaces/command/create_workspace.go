// Package command changes workspaces.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// CreateWorkspace opens a new tenant.
type CreateWorkspace struct {
	Name       string
	OwnerEmail string
}

// CreateWorkspaceHandler handles CreateWorkspace.
type CreateWorkspaceHandler struct {
	repo  workspaces.Repository
	ids   platform.IDs
	clock platform.Clock
}

// NewCreateWorkspaceHandler builds the handler.
func NewCreateWorkspaceHandler(repo workspaces.Repository, ids platform.IDs, clock platform.Clock) CreateWorkspaceHandler {
	return CreateWorkspaceHandler{repo: repo, ids: ids, clock: clock}
}

// Handle validates and stores the workspace.
func (h CreateWorkspaceHandler) Handle(ctx context.Context, cmd CreateWorkspace) (query.Workspace, error) {
	w, err := workspaces.New(h.ids.New(workspaces.IDPrefix), cmd.Name, cmd.OwnerEmail, h.clock.Now())
	if err != nil {
		return query.Workspace{}, err
	}
	if err := h.repo.Add(ctx, w); err != nil {
		return query.Workspace{}, err
	}
	return query.View(w), nil
}
