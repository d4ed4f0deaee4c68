package query

import (
	"context"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/workspaces"
)

// Directory is the workspaces module's published read port: what other modules may
// know about workspaces, wired to them in the composition root. Nobody else reads the
// workspaces table.
type Directory interface {
	platform.WorkspaceDirectory
	// Find returns the workspaces among ids; unknown ids are absent from the map.
	Find(ctx context.Context, ids []string) (map[string]workspaces.Workspace, error)
	// FoundedBy lists the workspaces whose owner e-mail is email, compared
	// case-insensitively, by id.
	FoundedBy(ctx context.Context, email string) ([]workspaces.Workspace, error)
}
