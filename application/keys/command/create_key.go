package command

import (
	"context"
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/creatorapi/creatorapi/application/keys/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
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

// CreateKey generates the secret, stores only its hash and returns the secret once.
func (d Deps) CreateKey(ctx context.Context, cmd CreateKey) (CreatedKey, error) {
	generate := keys.GenerateToken
	if !kernel.Livemode(cmd.WorkspaceID) {
		generate = keys.GenerateTestToken // a key of a sandbox workspace acts in test mode
	}
	token, err := generate(rand.Reader)
	if err != nil {
		return CreatedKey{}, err
	}
	k, err := keys.New(d.IDs.New(keys.IDPrefix), cmd.WorkspaceID, cmd.Name, cmd.Scopes,
		keys.Quota{PerMinute: cmd.PerMinute, PerDay: cmd.PerDay}, token, d.Clock.Now())
	if err != nil {
		return CreatedKey{}, err
	}
	if err := platform.RequireWorkspace(ctx, d.Workspaces, cmd.WorkspaceID); err != nil {
		return CreatedKey{}, err
	}
	existing, err := d.Repo.List(ctx, cmd.WorkspaceID)
	if err != nil {
		return CreatedKey{}, err
	}
	if err := keys.RoomForAnother(existing); err != nil {
		return CreatedKey{}, err
	}
	if err := d.Repo.Add(ctx, k); err != nil {
		return CreatedKey{}, err
	}
	if err := d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: k.WorkspaceID, Action: "key.created", Target: k.ID,
		Detail: fmt.Sprintf("%q with scopes %s", k.Name, strings.Join(keys.ScopeNames(k.Scopes), ", "))}); err != nil {
		return CreatedKey{}, err
	}
	return CreatedKey{Key: query.View(k), Secret: token.String()}, nil
}
