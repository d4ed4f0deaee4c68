package query

import "context"

// ListKeys merges stored last-use times with the ones not yet flushed.
func (r Reads) ListKeys(ctx context.Context, workspaceID string) ([]Key, error) {
	list, err := r.Repo.List(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	return r.Views.All(list), nil
}
