package command

import (
	"context"

	"github.com/creatorapi/creatorapi/application/workspaces/query"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// OpenSandbox returns the paired sandbox of a live workspace, creating it on first use
// (the first test key or test endpoint). Asked of a sandbox, it returns that sandbox, so
// a caller holding either id reaches the same one.
type OpenSandbox struct {
	WorkspaceID string
}

// OpenedSandbox is the sandbox and whether this call created it (the caller seeds it then).
type OpenedSandbox struct {
	query.Workspace
	Created bool `json:"-"`
}

// OpenSandbox finds or creates the sandbox; two concurrent first calls make one row.
func (d Deps) OpenSandbox(ctx context.Context, cmd OpenSandbox) (OpenedSandbox, error) {
	w, err := d.Repo.Get(ctx, cmd.WorkspaceID)
	if err != nil {
		return OpenedSandbox{}, err
	}
	if !w.Livemode() {
		return OpenedSandbox{Workspace: query.View(w)}, nil
	}
	sandbox, err := workspaces.NewSandbox(w, d.Clock.Now())
	if err != nil {
		return OpenedSandbox{}, err
	}
	created, err := d.Repo.AddSandbox(ctx, sandbox)
	if err != nil {
		return OpenedSandbox{}, err
	}
	if !created {
		if sandbox, err = d.Repo.Get(ctx, sandbox.ID); err != nil {
			return OpenedSandbox{}, err
		}
	} else if d.Seeder != nil {
		if err := d.Seeder.Seed(ctx, sandbox.ID); err != nil {
			return OpenedSandbox{}, err
		}
	}
	return OpenedSandbox{Workspace: query.View(sandbox), Created: created}, nil
}
