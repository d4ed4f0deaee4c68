package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/cmd/creatorapi/compose"
)

// secretKey runs `secret-key rotate`: a new master key, every webhook signing secret
// re-sealed under it and the key check replaced, in one transaction. The new key comes
// from CREATORAPI_NEW_SECRET_KEY or is generated. With a key file, the file is replaced
// after the commit; with CREATORAPI_SECRET_KEY, the new key is printed for the operator
// to deploy. Stop every instance first: one still running with the old key cannot open
// the re-sealed secrets (docs/operations.md).
func (c *CLI) secretKey(args []string) error {
	if len(args) != 1 || args[0] != "rotate" {
		return usageError("usage: creatorapi secret-key rotate   (new key from CREATORAPI_NEW_SECRET_KEY, or generated)")
	}
	cfg, err := compose.LoadConfig(c.getenv)
	if err != nil {
		return err
	}
	next, err := newSecretKey(c.getenv("CREATORAPI_NEW_SECRET_KEY"))
	if err != nil {
		return err
	}
	var (
		current secrets.MasterKey
		store   *sqlstore.MasterKeyStore
		clock   platform.Clock
	)
	return c.withModules(func(ctx context.Context) error {
		// Starting the modules checked the current key against the database.
		oldBox, err := secrets.NewBox(current.For(secrets.WebhookSecretsPurpose))
		if err != nil {
			return err
		}
		newBox, err := secrets.NewBox(next.For(secrets.WebhookSecretsPurpose))
		if err != nil {
			return err
		}
		check, err := next.Check()
		if err != nil {
			return err
		}
		if cfg.SecretKey == "" {
			// Written before the commit, in place after it: the new key is never lost.
			if err := secrets.WriteKeyFile(cfg.DataDir, secrets.KeyFileName+".new", next); err != nil {
				return err
			}
		}
		rot, err := store.Rotate(ctx, sqlstore.Resealer{Opens: current.Opens, Old: oldBox, New: newBox, NewCheck: check}, clock.Now())
		if err != nil {
			_ = os.Remove(filepath.Join(cfg.DataDir, secrets.KeyFileName+".new"))
			return err
		}
		out := map[string]any{"resealed": rot.Resealed, "unreadable": rot.Unreadable}
		if cfg.SecretKey == "" {
			if err := secrets.ReplaceKeyFile(cfg.DataDir, next); err != nil {
				return fmt.Errorf("the database now uses the new key, but: %w", err)
			}
			out["keyFile"] = filepath.Join(cfg.DataDir, secrets.KeyFileName)
			out["next"] = "copy the new key file to every instance that shares this database, then start them"
		} else {
			out["secretKey"] = next.Hex()
			out["next"] = "set CREATORAPI_SECRET_KEY to secretKey on every instance that shares this database, then start them"
		}
		return c.printJSON(out)
	}, &current, &store, &clock)
}

func newSecretKey(raw string) (secrets.MasterKey, error) {
	if raw == "" {
		return secrets.GenerateMasterKey()
	}
	k, err := secrets.ParseMasterKey(raw)
	if err != nil {
		return secrets.MasterKey{}, fmt.Errorf("CREATORAPI_NEW_SECRET_KEY: %w", err)
	}
	return k, nil
}
