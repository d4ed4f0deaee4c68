package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/keys"
)

// ListKeysHandler lists a workspace's keys, newest first, revoked ones included.
type ListKeysHandler struct {
	repo  keys.Repository
	views Views
}

// NewListKeysHandler builds the handler.
func NewListKeysHandler(repo keys.Repository, views Views) ListKeysHandler {
	return ListKeysHandler{repo: repo, views: views}
}

// Handle merges stored last-use times with the ones not yet flushed.
func (h ListKeysHandler) Handle(ctx context.Context, workspaceID string) ([]Key, error) {
	list, err := h.repo.List(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	return h.views.All(list), nil
}
