package compose

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"

	"go.uber.org/fx"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqlstore"
	"github.com/creatorapi/creatorapi/application/platform"
)

// newMasterKey loads the master key (CREATORAPI_SECRET_KEY, else the data folder's key
// file, created on the first run of a new database) and, once migrations have run,
// checks it against the key check stored in the database (stored there by the first
// start). A wrong or missing key stops the service: started anyway, it would seal new
// secrets under one key and fail to open the others.
func newMasterKey(lc fx.Lifecycle, cfg Config, store *sqlstore.MasterKeyStore, clock platform.Clock) (secrets.MasterKey, error) {
	key, err := loadMasterKey(cfg, store)
	if err != nil {
		return secrets.MasterKey{}, err
	}
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error { // after the migrations' hook
		if err := provesOnExistingSecrets(ctx, cfg, key, store); err != nil {
			return err
		}
		check, err := key.Check()
		if err != nil {
			return err
		}
		stored, err := store.EnsureCheck(ctx, check, clock.Now())
		if err != nil {
			return err
		}
		if !key.Opens(stored) {
			return wrongKey(cfg)
		}
		return nil
	}})
	return key, nil
}

// provesOnExistingSecrets refuses a key that opens none of the newest signing secrets of a
// database that has no key check yet (one from before the check existed).
func provesOnExistingSecrets(ctx context.Context, cfg Config, key secrets.MasterKey, store *sqlstore.MasterKeyStore) error {
	if _, ok, err := store.StoredCheck(ctx); err != nil || ok {
		return err
	}
	box, err := secrets.NewBox(key.For(secrets.WebhookSecretsPurpose))
	if err != nil {
		return err
	}
	ok, err := store.OpensExisting(ctx, 20, func(owner string, sealed []byte) bool {
		_, err := box.Open(owner, sealed)
		return err == nil
	})
	if err != nil {
		return err
	}
	if !ok {
		return wrongKey(cfg)
	}
	return nil
}

func loadMasterKey(cfg Config, store *sqlstore.MasterKeyStore) (secrets.MasterKey, error) {
	if cfg.SecretKey != "" {
		k, err := secrets.ParseMasterKey(cfg.SecretKey)
		if err != nil {
			return secrets.MasterKey{}, fmt.Errorf("CREATORAPI_SECRET_KEY: %w", err)
		}
		return k, nil
	}
	exists, err := secrets.KeyFileExists(cfg.DataDir)
	if err != nil {
		return secrets.MasterKey{}, fmt.Errorf("master key file: %w", err)
	}
	if !exists {
		// Generate a key only for a database that has none: a database holding a key
		// check was sealed under a key this instance does not have.
		if _, ok, _ := store.StoredCheck(context.Background()); ok {
			return secrets.MasterKey{}, missingKey(cfg)
		}
	}
	return secrets.LoadOrCreate(cfg.DataDir)
}

func keyFile(cfg Config) string { return filepath.Join(cfg.DataDir, secrets.KeyFileName) }

func missingKey(cfg Config) error {
	return fmt.Errorf("no master key: CREATORAPI_SECRET_KEY is unset and %s does not exist, but the database holds "+
		"secrets sealed under a master key. Give this instance the key the database was created with: copy %s from the "+
		"instance that created it (or from your backup), or set CREATORAPI_SECRET_KEY to it. Starting with a new key "+
		"would leave every webhook signing secret unreadable (docs/operations.md, \"Master key\")",
		keyFile(cfg), secrets.KeyFileName)
}

func wrongKey(cfg Config) error {
	source := "CREATORAPI_SECRET_KEY"
	if cfg.SecretKey == "" {
		source = keyFile(cfg)
	}
	return fmt.Errorf("%w: the master key from %s is not the one this database's secrets were sealed with. "+
		"Every instance sharing a database needs the same key: copy %s from the instance that created the database "+
		"(or set CREATORAPI_SECRET_KEY to it) and start again. To change the key, run `creatorapi secret-key rotate` "+
		"with the current key (docs/operations.md, \"Master key\")", secrets.ErrWrongMasterKey, source, secrets.KeyFileName)
}

// KeyCheck tells whether this instance's master key still opens the database's key check
// (another process may have rotated it since this one started).
type KeyCheck func(ctx context.Context) error

func newKeyCheck(cfg Config, key secrets.MasterKey, store *sqlstore.MasterKeyStore) KeyCheck {
	return func(ctx context.Context) error {
		stored, ok, err := store.StoredCheck(ctx)
		if err != nil || !ok {
			return err
		}
		if !key.Opens(stored) {
			return wrongKey(cfg)
		}
		return nil
	}
}

// masterKeyWatchEvery is how often a running instance checks that its master key is still
// the database's.
const masterKeyWatchEvery = 10 * time.Second

// watchMasterKey stops the instance when its key no longer opens the key check (a rotation
// by another process): running on would seal new secrets under a key nobody else has.
func watchMasterKey(lc fx.Lifecycle, check KeyCheck, logger *slog.Logger, sd fx.Shutdowner) {
	runEvery(lc, masterKeyWatchEvery, func(ctx context.Context) {
		if err := check(ctx); errors.Is(err, secrets.ErrWrongMasterKey) {
			logger.Error("master key no longer matches the database; stopping", "error", err)
			_ = sd.Shutdown(fx.ExitCode(1))
		}
	})
}
