package secrets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// ParseNewKey reads CREATORAPI_NEW_SECRET_KEY, or generates a key when raw is empty.
func ParseNewKey(raw string) (MasterKey, error) {
	if raw == "" {
		return GenerateMasterKey()
	}
	k, err := ParseMasterKey(raw)
	if err != nil {
		return MasterKey{}, fmt.Errorf("CREATORAPI_NEW_SECRET_KEY: %w", err)
	}
	return k, nil
}

// Rotator rotates the master key (`creatorapi secret-key rotate`): a new key, every webhook
// signing secret re-sealed under it and the key check replaced, in one transaction.
type Rotator struct {
	Policy
	Current MasterKey
}

// Rotate re-seals under next and returns what the CLI prints. With a key file, the file
// is replaced after the commit (written beside it before, so the new key is never lost);
// with CREATORAPI_SECRET_KEY, the new key is returned for the operator to deploy.
func (k *Rotator) Rotate(ctx context.Context, next MasterKey) (map[string]any, error) {
	oldBox, err := NewBox(k.Current.For(WebhookSecretsPurpose))
	if err != nil {
		return nil, err
	}
	newBox, err := NewBox(next.For(WebhookSecretsPurpose))
	if err != nil {
		return nil, err
	}
	check, err := next.Check()
	if err != nil {
		return nil, err
	}
	pending := filepath.Join(k.DataDir, KeyFileName+".new")
	if k.EnvKey == "" {
		if err := WriteKeyFile(k.DataDir, KeyFileName+".new", next); err != nil {
			return nil, err
		}
	}
	rot, err := k.Store.Rotate(ctx, Resealer{Opens: k.Current.Opens, Old: oldBox, New: newBox, NewCheck: check}, k.Now())
	if err != nil {
		_ = os.Remove(pending)
		return nil, err
	}
	out := map[string]any{"resealed": rot.Resealed, "unreadable": rot.Unreadable}
	if k.EnvKey == "" {
		if err := ReplaceKeyFile(k.DataDir, next); err != nil {
			return nil, fmt.Errorf("the database now uses the new key, but: %w", err)
		}
		out["keyFile"] = filepath.Join(k.DataDir, KeyFileName)
		out["next"] = "copy the new key file to every instance that shares this database, then start them"
	} else {
		out["secretKey"] = next.Hex()
		out["next"] = "set CREATORAPI_SECRET_KEY to secretKey on every instance that shares this database, then start them"
	}
	return out, nil
}
