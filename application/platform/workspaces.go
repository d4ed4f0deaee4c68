package platform

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// WorkspaceDirectory tells whether a workspace exists: every tenant-scoped use case
// checks it before it creates anything (a port onto the workspaces module).
type WorkspaceDirectory interface {
	Exists(ctx context.Context, workspaceID string) (bool, error)
}

// RequireWorkspace returns kernel NotFound unless the workspace exists.
func RequireWorkspace(ctx context.Context, dir WorkspaceDirectory, workspaceID string) error {
	ok, err := dir.Exists(ctx, workspaceID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.NotFound("workspace %s not found", workspaceID)
	}
	return nil
}
