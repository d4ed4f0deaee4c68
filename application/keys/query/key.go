// Package query reads API keys and authenticates bearer tokens.
package query

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Key is how a key is shown to its owner; the secret never appears again.
type Key struct {
	ID         string       `json:"id"`
	Name       string       `json:"name"`
	Prefix     string       `json:"prefix"`
	LastFour   string       `json:"lastFour,omitempty"`
	Scopes     []keys.Scope `json:"scopes"`
	PerMinute  int          `json:"perMinute"`
	PerDay     int          `json:"perDay"`
	Status     string       `json:"status"`
	CreatedAt  time.Time    `json:"createdAt"`
	RevokedAt  *time.Time   `json:"revokedAt"`
	LastUsedAt *time.Time   `json:"lastUsedAt"`
	// RotationDue: active and older than 90 days (set by ListKeys, which knows the time).
	RotationDue bool `json:"rotationDue"`
}

// View maps a key to its shape; Prefix (svc_ + lookup) identifies it without revealing the secret.
func View(k *keys.Key) Key {
	status := "active"
	if !k.Active() {
		status = "revoked"
	}
	prefix := keys.TokenPrefix
	if !kernel.Livemode(k.WorkspaceID) {
		prefix = keys.TestTokenPrefix // a sandbox key's secret starts svc_test_
	}
	return Key{
		ID: k.ID, Name: k.Name, Prefix: prefix + k.Lookup, LastFour: k.LastFour, Scopes: k.Scopes,
		PerMinute: k.PerMinute, PerDay: k.PerDay, Status: status,
		CreatedAt: k.CreatedAt, RevokedAt: k.RevokedAt, LastUsedAt: k.LastUsedAt,
	}
}
