package query

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/platform"
)

// ListKeysHandler lists a workspace's keys, newest first, revoked ones included.
type ListKeysHandler struct {
	repo  keysLister
	usage UsageRecorder
	clock platform.Clock
}

// NewListKeysHandler builds the handler.
func NewListKeysHandler(repo keysLister, usage UsageRecorder, clock platform.Clock) ListKeysHandler {
	return ListKeysHandler{repo: repo, usage: usage, clock: clock}
}

// Handle merges stored last-use times with the ones not yet flushed.
func (h ListKeysHandler) Handle(ctx context.Context, workspaceID string) ([]Key, error) {
	list, err := h.repo.List(ctx, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list keys: %w", err)
	}
	now := h.clock.Now()
	out := make([]Key, 0, len(list))
	for _, k := range list {
		v := View(k)
		v.RotationDue = k.RotationDue(now)
		if at, ok := h.usage.LastUsed(k.ID); ok && (v.LastUsedAt == nil || at.After(*v.LastUsedAt)) {
			v.LastUsedAt = &at
		}
		out = append(out, v)
	}
	return out, nil
}
