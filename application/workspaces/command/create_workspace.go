// Package command changes workspaces.
package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Deps are the ports every workspace command uses.
type Deps struct {
	platform.Kit // Tx, IDs, Clock, Observer
	Repo         workspaces.Repository
	Seeder       SandboxSeeder
}

// SandboxSeeder fills a new sandbox with sample data through the other modules' use
// cases (adapters/modulelinks.SandboxScenarios), in the transaction that opens it.
type SandboxSeeder interface {
	Seed(ctx context.Context, workspaceID string) error
}

// CreateWorkspace opens a new tenant.
type CreateWorkspace struct {
	Name       string
	OwnerEmail string
}

// CreateWorkspace validates and stores the workspace.
func (d Deps) CreateWorkspace(ctx context.Context, cmd CreateWorkspace) (query.Workspace, error) {
	w, err := workspaces.New(d.IDs.New(workspaces.IDPrefix), cmd.Name, cmd.OwnerEmail, d.Clock.Now())
	if err != nil {
		return query.Workspace{}, err
	}
	if err := d.Repo.Add(ctx, w); err != nil {
		return query.Workspace{}, err
	}
	return query.View(w), nil
}
