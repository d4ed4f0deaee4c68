package query

import (
	"context"
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
}

// KeyPage asks for one keyset page of a workspace's keys.
type KeyPage struct {
	WorkspaceID string
	Page        platform.PageRequest
}

// KeyPageHandler serves the dashboard's key list.
type KeyPageHandler struct {
	pages KeyPages
	views Views
}

// NewKeyPageHandler builds the handler.
func NewKeyPageHandler(pages KeyPages, views Views) KeyPageHandler {
	return KeyPageHandler{pages: pages, views: views}
}

// Handle returns one keyset page, newest first, with last use and rotation advice.
func (h KeyPageHandler) Handle(ctx context.Context, q KeyPage) (platform.Page[Key], error) {
	list, err := h.pages.Page(ctx, q.WorkspaceID, q.Page.After, q.Page.Fetch())
	if err != nil {
		return platform.Page[Key]{}, err
	}
	return platform.MapPage(platform.CutPage(list, q.Page, keyPosition), func(ks []*keys.Key) ([]Key, error) {
		return h.views.All(ks), nil
	})
}

func keyPosition(k *keys.Key) platform.Position {
	return platform.Position{CreatedAt: k.CreatedAt, ID: k.ID}
}

// GetKey asks for one key of a workspace.
type GetKey struct {
	WorkspaceID string
	KeyID       string
}

// GetKeyHandler handles GetKey.
type GetKeyHandler struct {
	repo  keys.Repository
	views Views
}

// NewGetKeyHandler builds the handler.
func NewGetKeyHandler(repo keys.Repository, views Views) GetKeyHandler {
	return GetKeyHandler{repo: repo, views: views}
}

// Handle returns the key, or NotFound outside the workspace.
func (h GetKeyHandler) Handle(ctx context.Context, q GetKey) (Key, error) {
	k, err := h.repo.Get(ctx, q.WorkspaceID, q.KeyID)
	if err != nil {
		return Key{}, err
	}
	return h.views.Of(k), nil
}

// KeyCounts are a workspace's active keys and how many of them are due for rotation.
type KeyCounts struct {
	Active      int
	RotationDue int
}

// KeyCountsHandler counts a workspace's keys (the dashboard's overview).
type KeyCountsHandler struct {
	pages KeyPages
	clock platform.Clock
}

// NewKeyCountsHandler builds the handler.
func NewKeyCountsHandler(pages KeyPages, clock platform.Clock) KeyCountsHandler {
	return KeyCountsHandler{pages: pages, clock: clock}
}

// Handle counts the keys of the workspace.
func (h KeyCountsHandler) Handle(ctx context.Context, workspaceID string) (KeyCounts, error) {
	active, due, err := h.pages.Count(ctx, workspaceID, h.clock.Now().Add(-keys.RotationAge))
	return KeyCounts{Active: active, RotationDue: due}, err
}
