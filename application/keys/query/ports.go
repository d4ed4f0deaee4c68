package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/keys"
)

type keysLister interface {
	List(ctx context.Context, workspaceID string) ([]*keys.Key, error)
}
