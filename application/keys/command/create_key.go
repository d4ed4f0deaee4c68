// Package command issues and revokes API keys.
package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// CreateKey issues a key with the given scopes; zero quotas mean the defaults (60/min, 1,000/day).
type CreateKey struct {
	WorkspaceID string
	Name        string
	Scopes      []string
	PerMinute   int
	PerDay      int
}

// CreatedKey is the new key with its secret, shown this once.
type CreatedKey struct {
	query.Key
	Secret string `json:"secret"`
}

// CreateKeyHandler handles CreateKey.
type CreateKeyHandler struct {
	tx         platform.Transactor
	repo       keys.Repository
	workspaces platform.WorkspaceDirectory
	audit      platform.AuditTrail
	ids        platform.IDs
	clock      platform.Clock
}

// NewCreateKeyHandler builds the handler.
func NewCreateKeyHandler(tx platform.Transactor, repo keys.Repository, ws platform.WorkspaceDirectory, audit platform.AuditTrail, ids platform.IDs, clock platform.Clock) CreateKeyHandler {
	return CreateKeyHandler{tx: tx, repo: repo, workspaces: ws, audit: audit, ids: ids, clock: clock}
}

// Handle generates the secret, stores only its hash and returns the secret once.
func (h CreateKeyHandler) Handle(ctx context.Context, cmd CreateKey) (CreatedKey, error) {
	token, err := keys.GenerateToken(rand.Reader)
	if err != nil {
		return CreatedKey{}, err
	}
	k, err := keys.New(h.ids.New(keys.IDPrefix), cmd.WorkspaceID, cmd.Name, cmd.Scopes,
		keys.Quota{PerMinute: cmd.PerMinute, PerDay: cmd.PerDay}, token, h.clock.Now())
	if err != nil {
		return CreatedKey{}, err
	}
	err = h.tx.WithinTx(ctx, func(ctx context.Context) error {
		if err := platform.RequireWorkspace(ctx, h.workspaces, cmd.WorkspaceID); err != nil {
			return err
		}
		if err := h.repo.Add(ctx, k); err != nil {
			return err
		}
		scopes := make([]string, len(k.Scopes))
		for i, sc := range k.Scopes {
			scopes[i] = string(sc)
		}
		return h.audit.Record(ctx, platform.AuditEntry{WorkspaceID: k.WorkspaceID, Action: "key.created", Target: k.ID,
			Detail: fmt.Sprintf("%q with scopes %s", k.Name, strings.Join(scopes, ", "))})
	})
	if err != nil {
		return CreatedKey{}, fmt.Errorf("create key: %w", err)
	}
	return CreatedKey{Key: query.View(k), Secret: token.String()}, nil
}
