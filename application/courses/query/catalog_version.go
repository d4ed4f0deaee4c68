package query

import "context"

// CatalogVersion returns the current version.
func (r Reads) CatalogVersion(ctx context.Context, workspaceID string) (int64, error) {
	return r.ReadModel.CatalogVersion(ctx, workspaceID)
}
