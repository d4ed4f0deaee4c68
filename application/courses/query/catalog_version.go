package query

import "context"

// CatalogVersionHandler tells the version of a workspace's catalogue: equal versions
// mean equal course data, so callers may reuse what they computed from it.
type CatalogVersionHandler struct {
	rm ReadModel
}

// NewCatalogVersionHandler builds the handler.
func NewCatalogVersionHandler(rm ReadModel) CatalogVersionHandler {
	return CatalogVersionHandler{rm: rm}
}

// Handle returns the current version.
func (h CatalogVersionHandler) Handle(ctx context.Context, workspaceID string) (int64, error) {
	return h.rm.CatalogVersion(ctx, workspaceID)
}
