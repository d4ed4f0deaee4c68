package query

import (
	"context"
	"fmt"
)

// ListKeysHandler lists a workspace's keys, newest first, revoked ones included.
type ListKeysHandler struct {
	repo  keysLister
	usage UsageRecorder
}

// NewListKeysHandler builds the handler.
func NewListKeysHandler(repo keysLister, usage UsageRecorder) ListKeysHandler {
	return ListKeysHandler{repo: repo, usage: usage}
}

// Handle merges stored last-use times with the ones not yet flushed.
func (h ListKeysHandler) Handle(ctx context.Context, workspaceID string) ([]Key, error) {
	list, err := h.repo.List(ctx, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	out := make([]Key, 0, len(list))
	for _, k := range list {
		v := View(k)
		if at, ok := h.usage.LastUsed(k.ID); ok && (v.LastUsedAt == nil || at.After(*v.LastUsedAt)) {
			v.LastUsedAt = &at
		}
		out = append(out, v)
	}
	return out, nil
}
