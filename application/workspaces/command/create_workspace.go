// Package command changes workspaces.
package command

import (
	"context"
	"fmt"

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
	tx    platform.Transactor
	repo  workspaces.Repository
	ids   platform.IDs
	clock platform.Clock
}

// NewCreateWorkspaceHandler builds the handler.
func NewCreateWorkspaceHandler(tx platform.Transactor, repo workspaces.Repository, ids platform.IDs, clock platform.Clock) CreateWorkspaceHandler {
	return CreateWorkspaceHandler{tx: tx, repo: repo, ids: ids, clock: clock}
}

// Handle validates and stores the workspace.
func (h CreateWorkspaceHandler) Handle(ctx context.Context, cmd CreateWorkspace) (query.Workspace, error) {
	w, err := workspaces.New(h.ids.New(workspaces.IDPrefix), cmd.Name, cmd.OwnerEmail, h.clock.Now())
	if err != nil {
		return query.Workspace{}, err
	}
	err = h.tx.WithinTx(ctx, func(ctx context.Context) error { return h.repo.Add(ctx, w) })
	if err != nil {
		return query.Workspace{}, fmt.Errorf("create workspace: %w", err)
	}
	return query.View(w), nil
}
