package query

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// KeyPages reads keys a page at a time and counts them, for the dashboard.
type KeyPages interface {
	// Page returns up to limit keys after after (nil: from the newest), newest first.
	Page(ctx context.Context, workspaceID string, after *platform.Position, limit int) ([]*keys.Key, error)
	// Count returns the active keys and those of them created before rotateBefore.
	Count(ctx context.Context, workspaceID string, rotateBefore time.Time) (active, rotationDue int, err error)
	Get(ctx context.Context, workspaceID, id string) (*keys.Key, error)
}

// KeyPagesHandler serves the dashboard's key list, one key and the overview's counts.
type KeyPagesHandler struct {
	repo  KeyPages
	usage UsageRecorder
	clock platform.Clock
}

// NewKeyPagesHandler builds the handler.
func NewKeyPagesHandler(repo KeyPages, usage UsageRecorder, clock platform.Clock) KeyPagesHandler {
	return KeyPagesHandler{repo: repo, usage: usage, clock: clock}
}

// Page returns one keyset page, newest first, with last use and rotation advice.
func (h KeyPagesHandler) Page(ctx context.Context, workspaceID string, req platform.PageRequest) (platform.Page[Key], error) {
	list, err := h.repo.Page(ctx, workspaceID, req.After, req.Limit+1)
	if err != nil {
		return platform.Page[Key]{}, fmt.Errorf("list keys: %w", err)
	}
	var out platform.Page[Key]
	if len(list) > req.Limit {
		list = list[:req.Limit]
		last := list[len(list)-1]
		out.HasMore, out.Next = true, &platform.Position{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	out.Items = make([]Key, len(list))
	for i, k := range list {
		out.Items[i] = h.view(k)
	}
	return out, nil
}

// Get returns one key of the workspace, or NotFound.
func (h KeyPagesHandler) Get(ctx context.Context, workspaceID, id string) (Key, error) {
	k, err := h.repo.Get(ctx, workspaceID, id)
	if err != nil {
		return Key{}, err
	}
	return h.view(k), nil
}

// Counts returns the active keys and how many of them are due for rotation.
func (h KeyPagesHandler) Counts(ctx context.Context, workspaceID string) (active, rotationDue int, err error) {
	return h.repo.Count(ctx, workspaceID, h.clock.Now().Add(-keys.RotationAge))
}

func (h KeyPagesHandler) view(k *keys.Key) Key {
	v := View(k)
	v.RotationDue = k.RotationDue(h.clock.Now())
	if at, ok := h.usage.LastUsed(k.ID); ok && (v.LastUsedAt == nil || at.After(*v.LastUsedAt)) {
		v.LastUsedAt = &at
	}
	return v
}
