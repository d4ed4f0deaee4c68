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

// KeyPage returns one keyset page, newest first, with last use and rotation advice.
func (r Reads) KeyPage(ctx context.Context, q KeyPage) (platform.Page[Key], error) {
	list, err := r.Pages.Page(ctx, q.WorkspaceID, q.Page.After, q.Page.Fetch())
	if err != nil {
		return platform.Page[Key]{}, err
	}
	return platform.MapPage(platform.CutPage(list, q.Page, keyPosition), func(ks []*keys.Key) ([]Key, error) {
		return r.Views.All(ks), nil
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

// GetKey returns the key, or NotFound outside the workspace.
func (r Reads) GetKey(ctx context.Context, q GetKey) (Key, error) {
	k, err := r.Repo.Get(ctx, q.WorkspaceID, q.KeyID)
	if err != nil {
		return Key{}, err
	}
	return r.Views.Of(k), nil
}

// KeyCounts are a workspace's active keys and how many of them are due for rotation.
type KeyCounts struct {
	Active      int
	RotationDue int
}

// KeyCounts counts the keys of the workspace.
func (r Reads) KeyCounts(ctx context.Context, workspaceID string) (KeyCounts, error) {
	active, due, err := r.Pages.Count(ctx, workspaceID, r.Clock.Now().Add(-keys.RotationAge))
	return KeyCounts{Active: active, RotationDue: due}, err
}
