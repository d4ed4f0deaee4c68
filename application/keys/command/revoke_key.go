package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
)

// RevokeKey ends a key's life; the next request with it is refused.
type RevokeKey struct {
	WorkspaceID string
	KeyID       string
}

// RevokeKey is idempotent: revoking a revoked key returns it unchanged. Of racing
// revocations one stores its time and is audited; the others answer the stored key.
func (d Deps) RevokeKey(ctx context.Context, cmd RevokeKey) (query.Key, error) {
	k, err := d.Repo.Get(ctx, cmd.WorkspaceID, cmd.KeyID)
	if err != nil {
		return query.Key{}, err
	}
	if !k.Active() {
		return query.View(k), nil // already revoked: nothing changes, nothing to audit
	}
	k.Revoke(d.Clock.Now())
	revoked, err := d.Repo.SaveRevocation(ctx, k)
	if err != nil {
		return query.Key{}, err
	}
	if !revoked { // a concurrent call revoked it first: answer its time
		if k, err = d.Repo.Get(ctx, cmd.WorkspaceID, cmd.KeyID); err != nil {
			return query.Key{}, err
		}
		return query.View(k), nil
	}
	return query.View(k), d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: k.WorkspaceID, Action: "key.revoked",
		Target: k.ID, Detail: fmt.Sprintf("%q", k.Name)})
}
