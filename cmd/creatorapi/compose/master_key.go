package compose

import (
	"context"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
)

// KeyRotation carries out `creatorapi secret-key rotate` (the CLI reaches adapters only
// through the composition root).
type KeyRotation = secrets.Rotator

// ParseNewSecretKey reads CREATORAPI_NEW_SECRET_KEY, or generates a key when raw is empty.
func ParseNewSecretKey(raw string) (secrets.MasterKey, error) { return secrets.ParseNewKey(raw) }

func newKeyPolicy(cfg Config, store *sqlstore.MasterKeyStore, clock platform.Clock) secrets.Policy {
	return secrets.Policy{DataDir: cfg.DataDir, EnvKey: cfg.SecretKey, Store: store, Now: clock.Now}
}

// newMasterKey loads the key now and proves it on start, after the migrations' hook.
func newMasterKey(lc fx.Lifecycle, p secrets.Policy) (secrets.MasterKey, error) {
	key, err := p.Load(context.Background())
	if err != nil {
		return secrets.MasterKey{}, err
	}
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error { return p.Prove(ctx, key) }})
	return key, nil
}

func newKeyRotation(p secrets.Policy, current secrets.MasterKey) *KeyRotation {
	return &secrets.Rotator{Policy: p, Current: current}
}
