package query

import (
	"context"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/keys"
)

// Principal is the authenticated caller of the public API.
type Principal struct {
	KeyID       string
	WorkspaceID string
	Scopes      []keys.Scope
	Quota       keys.Quota
	// Livemode is false for a key of a sandbox workspace (an svc_test_ secret).
	Livemode bool
}

// Allows tells whether the caller holds scope.
func (p Principal) Allows(scope keys.Scope) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// Authenticate checks the token's shape and checksum first (no storage touched for a typo or a
// forgery), then finds the key by its lookup part and compares hashes in constant time.
// Revocation is read from storage on every call, so it takes effect on the next request.
func (r Reads) Authenticate(ctx context.Context, bearer string) (Principal, error) {
	token, err := keys.ParseToken(bearer)
	if err != nil {
		return Principal{}, err
	}
	k, err := r.Repo.FindByLookup(ctx, token.Lookup())
	if kernel.IsNotFound(err) {
		return Principal{}, kernel.Unauthenticated("invalid API key")
	}
	if err != nil {
		return Principal{}, err
	}
	if !k.Verify(token) {
		return Principal{}, kernel.Unauthenticated("invalid API key")
	}
	if token.Test() == kernel.Livemode(k.WorkspaceID) { // issued together; never apart
		return Principal{}, kernel.Unauthenticated("invalid API key")
	}
	if !k.Active() {
		return Principal{}, kernel.Unauthenticated("API key revoked")
	}
	r.Usage.RecordUse(k.ID, r.Clock.Now())
	return Principal{
		KeyID: k.ID, WorkspaceID: k.WorkspaceID, Scopes: k.Scopes,
		Quota:    keys.Quota{PerMinute: k.PerMinute, PerDay: k.PerDay},
		Livemode: kernel.Livemode(k.WorkspaceID),
	}, nil
}
