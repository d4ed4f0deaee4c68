package workspaces

import (
	"context"
	"sync"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/workspaces/query"
)

// maxKnownWorkspaces bounds the memory of Known (about 50 bytes an entry); past it the
// set starts over.
const maxKnownWorkspaces = 100_000

// Known answers Exists from memory for every workspace it has seen exist: workspaces
// are never deleted (migrations/*/00017_module_foreign_keys.sql), so a yes stays true
// and every tenant-scoped write (POST /api/v1/students: one round trip of six) skips
// its SELECT after the first. A no is always asked again. A yes read inside a
// transaction is remembered only once that transaction has committed, since the
// transaction may be the one that created the workspace.
type Known struct {
	query.Directory
	mu   sync.RWMutex
	seen map[string]struct{}
}

// Remember wraps d.
func Remember(d query.Directory) *Known {
	return &Known{Directory: d, seen: map[string]struct{}{}}
}

// Exists answers from memory or asks d.
func (k *Known) Exists(ctx context.Context, workspaceID string) (bool, error) {
	k.mu.RLock()
	_, ok := k.seen[workspaceID]
	k.mu.RUnlock()
	if ok {
		return true, nil
	}
	ok, err := k.Directory.Exists(ctx, workspaceID)
	if err != nil || !ok {
		return ok, err
	}
	if _, inTx := sqldb.TxFromContext(ctx); !inTx {
		k.remember(workspaceID)
	} else {
		// A transaction whose commit nobody reports (a subscriber's) is not remembered.
		sqldb.AfterCommit(ctx, func() { k.remember(workspaceID) })
	}
	return true, nil
}

func (k *Known) remember(workspaceID string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.seen) >= maxKnownWorkspaces {
		k.seen = map[string]struct{}{}
	}
	k.seen[workspaceID] = struct{}{}
}
