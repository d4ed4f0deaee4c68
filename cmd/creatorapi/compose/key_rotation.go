package compose

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
)

// KeyRotation carries out `creatorapi secret-key rotate` (the CLI reaches adapters only
// through the composition root): a new master key, every webhook signing secret re-sealed
// under it and the key check replaced, in one transaction.
type KeyRotation struct {
	cfg     Config
	current secrets.MasterKey
	store   *sqlstore.MasterKeyStore
	clock   platform.Clock
}

func newKeyRotation(cfg Config, current secrets.MasterKey, store *sqlstore.MasterKeyStore, clock platform.Clock) *KeyRotation {
	return &KeyRotation{cfg: cfg, current: current, store: store, clock: clock}
}

// ParseNewSecretKey reads CREATORAPI_NEW_SECRET_KEY, or generates a key when raw is empty.
func ParseNewSecretKey(raw string) (secrets.MasterKey, error) {
	if raw == "" {
		return secrets.GenerateMasterKey()
	}
	k, err := secrets.ParseMasterKey(raw)
	if err != nil {
		return secrets.MasterKey{}, fmt.Errorf("CREATORAPI_NEW_SECRET_KEY: %w", err)
	}
	return k, nil
}

// Rotate re-seals under next and returns what the CLI prints. With a key file, the file
// is replaced after the commit (written beside it before, so the new key is never lost);
// with CREATORAPI_SECRET_KEY, the new key is returned for the operator to deploy.
func (k *KeyRotation) Rotate(ctx context.Context, next secrets.MasterKey) (map[string]any, error) {
	oldBox, err := secrets.NewBox(k.current.For(secrets.WebhookSecretsPurpose))
	if err != nil {
		return nil, err
	}
	newBox, err := secrets.NewBox(next.For(secrets.WebhookSecretsPurpose))
	if err != nil {
		return nil, err
	}
	check, err := next.Check()
	if err != nil {
		return nil, err
	}
	pending := filepath.Join(k.cfg.DataDir, secrets.KeyFileName+".new")
	if k.cfg.SecretKey == "" {
		if err := secrets.WriteKeyFile(k.cfg.DataDir, secrets.KeyFileName+".new", next); err != nil {
			return nil, err
		}
	}
	rot, err := k.store.Rotate(ctx, sqlstore.Resealer{Opens: k.current.Opens, Old: oldBox, New: newBox, NewCheck: check}, k.clock.Now())
	if err != nil {
		_ = os.Remove(pending)
		return nil, err
	}
	out := map[string]any{"resealed": rot.Resealed, "unreadable": rot.Unreadable}
	if k.cfg.SecretKey == "" {
		if err := secrets.ReplaceKeyFile(k.cfg.DataDir, next); err != nil {
			return nil, fmt.Errorf("the database now uses the new key, but: %w", err)
		}
		out["keyFile"] = filepath.Join(k.cfg.DataDir, secrets.KeyFileName)
		out["next"] = "copy the new key file to every instance that shares this database, then start them"
	} else {
		out["secretKey"] = next.Hex()
		out["next"] = "set CREATORAPI_SECRET_KEY to secretKey on every instance that shares this database, then start them"
	}
	return out, nil
}
