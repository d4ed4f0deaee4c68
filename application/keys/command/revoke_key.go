package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// RevokeKey ends a key's life; the next request with it is refused.
type RevokeKey struct {
	WorkspaceID string
	KeyID       string
}

// RevokeKeyHandler handles RevokeKey.
type RevokeKeyHandler struct {
	tx    platform.Transactor
	repo  keys.Repository
	audit platform.AuditTrail
	clock platform.Clock
}

// NewRevokeKeyHandler builds the handler.
func NewRevokeKeyHandler(tx platform.Transactor, repo keys.Repository, audit platform.AuditTrail, clock platform.Clock) RevokeKeyHandler {
	return RevokeKeyHandler{tx: tx, repo: repo, audit: audit, clock: clock}
}

// Handle is idempotent: revoking a revoked key returns it unchanged.
func (h RevokeKeyHandler) Handle(ctx context.Context, cmd RevokeKey) (query.Key, error) {
	var out query.Key
	err := h.tx.WithinTx(ctx, func(ctx context.Context) error {
		k, err := h.repo.Get(ctx, cmd.WorkspaceID, cmd.KeyID)
		if err != nil {
			return err
		}
		if !k.Active() {
			out = query.View(k)
			return nil // already revoked: nothing changes, nothing to audit
		}
		k.Revoke(h.clock.Now())
		out = query.View(k)
		if err := h.repo.SaveRevocation(ctx, k); err != nil {
			return err
		}
		return h.audit.Record(ctx, platform.AuditEntry{WorkspaceID: k.WorkspaceID, Action: "key.revoked", Target: k.ID,
			Detail: fmt.Sprintf("%q", k.Name)})
	})
	if err != nil {
		return query.Key{}, fmt.Errorf("revoke key: %w", err)
	}
	return out, nil
}
