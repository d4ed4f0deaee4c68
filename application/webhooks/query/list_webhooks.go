package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// ListWebhooksHandler lists a workspace's endpoints, newest first.
type ListWebhooksHandler struct {
	repo webhooks.Repository
}

// NewListWebhooksHandler builds the handler.
func NewListWebhooksHandler(repo webhooks.Repository) ListWebhooksHandler {
	return ListWebhooksHandler{repo: repo}
}

// Handle returns every endpoint of the workspace, disabled ones included.
func (h ListWebhooksHandler) Handle(ctx context.Context, workspaceID string) ([]Webhook, error) {
	list, err := h.repo.List(ctx, workspaceID)
	if err != nil {
		return nil, err
	}
	out := make([]Webhook, 0, len(list))
	for _, s := range list {
		out = append(out, View(s))
	}
	return out, nil
}
