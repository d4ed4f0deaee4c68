// Package query reads the deprecated calls of a workspace's keys (the dashboard's API
// health).
package query

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/domain/deprecations"
)

// Reads answers the module's queries.
type Reads struct{ Repo deprecations.Repository }

// ListCalls lists the workspace's deprecated calls, by key then route. Counts reach the
// store at each flush (every 10 seconds), so the newest calls may not show yet.
func (r Reads) ListCalls(ctx context.Context, workspaceID string) ([]deprecations.Call, error) {
	calls, err := r.Repo.Calls(ctx, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("deprecated calls of %s: %w", workspaceID, err)
	}
	return calls, nil
}
