// Package keys holds API keys: scoped, revocable credentials of one workspace.
package keys

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// IDPrefix prefixes key ids (key_...).
const IDPrefix = "key"

// Default quotas of the specification; enterprise keys may carry others.
const (
	DefaultPerMinute = 60
	DefaultPerDay    = 1000
	maxQuota         = 1_000_000_000
)

// Key is the stored record: only a hash of the secret is kept.
type Key struct {
	ID          string
	WorkspaceID string
	Name        string
	Lookup      string
	LastFour    string // the secret's last four characters (checksum, not secret material)
	SecretHash  []byte
	Scopes      []Scope
	PerMinute   int
	PerDay      int
	CreatedAt   time.Time
	RevokedAt   *time.Time
	LastUsedAt  *time.Time
}

// Quota is a per-minute and per-day request allowance; zero means the default.
type Quota struct {
	PerMinute int
	PerDay    int
}

// New builds a key for token. The caller shows token.String() once and forgets it.
func New(id, workspaceID, name string, scopes []string, quota Quota, token Token, now time.Time) (*Key, error) {
	name, err := kernel.RequireName("name", name, 100)
	if err != nil {
		return nil, err
	}
	if token.Test() == kernel.Livemode(workspaceID) {
		return nil, kernel.Invalid("workspace", "a sandbox key needs an svc_test_ secret and a live key a live one")
	}
	parsed, err := ParseScopes(scopes)
	if err != nil {
		return nil, err
	}
	perMinute, err := quotaOrDefault("perMinute", quota.PerMinute, DefaultPerMinute)
	if err != nil {
		return nil, err
	}
	perDay, err := quotaOrDefault("perDay", quota.PerDay, DefaultPerDay)
	if err != nil {
		return nil, err
	}
	return &Key{
		ID: id, WorkspaceID: workspaceID, Name: name,
		Lookup: token.Lookup(), LastFour: token.LastFour(), SecretHash: token.Hash(),
		Scopes: parsed, PerMinute: perMinute, PerDay: perDay, CreatedAt: now,
	}, nil
}

func quotaOrDefault(field string, v, def int) (int, error) {
	switch {
	case v == 0:
		return def, nil
	case v < 0 || v > maxQuota:
		return 0, kernel.Invalid(field, "%s must be between 1 and %d", field, maxQuota)
	default:
		return v, nil
	}
}

// RotationAge is the age after which the specification advises rotating a key.
const RotationAge = 90 * 24 * time.Hour

// RotationDue tells whether the key is active and older than RotationAge at now.
func (k *Key) RotationDue(now time.Time) bool {
	return k.Active() && now.Sub(k.CreatedAt) > RotationAge
}

// Verify tells whether token is this key's secret, in constant time.
func (k *Key) Verify(token Token) bool {
	sum := token.sum()
	return subtle.ConstantTimeCompare(k.SecretHash, sum[:]) == 1
}

// Active tells whether the key may still be used.
func (k *Key) Active() bool { return k.RevokedAt == nil }

// Revoke ends the key's life; revoking twice keeps the first time.
func (k *Key) Revoke(now time.Time) {
	if k.RevokedAt == nil {
		k.RevokedAt = &now
	}
}

// Allows tells whether the key carries scope.
func (k *Key) Allows(scope Scope) bool {
	for _, s := range k.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Repository stores keys.
type Repository interface {
	Add(ctx context.Context, k *Key) error
	// Get returns NotFound unless the key exists in workspaceID.
	Get(ctx context.Context, workspaceID, id string) (*Key, error)
	// FindByLookup returns NotFound when no key has this lookup part.
	FindByLookup(ctx context.Context, lookup string) (*Key, error)
	List(ctx context.Context, workspaceID string) ([]*Key, error)
	// SaveRevocation stores k's revocation time unless the key was revoked already (the
	// earlier time is kept), and reports whether it stored it.
	SaveRevocation(ctx context.Context, k *Key) (bool, error)
}
