package secrets

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"time"
)

// KeyStore is where the database keeps its key check and the secrets sealed under the
// master key (sqlstore.MasterKeyStore).
type KeyStore interface {
	StoredCheck(ctx context.Context) (check string, ok bool, err error)
	EnsureCheck(ctx context.Context, check string, now time.Time) (stored string, err error)
	// OpensExisting tells whether open accepts one of the newest n sealed secrets (true when there are none).
	OpensExisting(ctx context.Context, n int, open func(owner string, sealed []byte) bool) (bool, error)
	Rotate(ctx context.Context, r Resealer, now time.Time) (Rotation, error)
}

// Resealer opens what the old key sealed and seals it under the new one.
type Resealer struct {
	Opens    func(check string) bool // the old key's check test
	Old, New *Box                    // webhook secret boxes
	NewCheck string
}

// Rotation is what a rotation did.
type Rotation struct {
	Resealed   int      `json:"resealed"`   // webhook endpoints whose secrets were re-sealed
	Unreadable []string `json:"unreadable"` // endpoints whose secret the old key could not open either (left as they were)
}

// Policy is the master key's rule: one key per database. It loads the key
// (CREATORAPI_SECRET_KEY, else the data folder's key file, created only for a database
// that has no key check yet), proves it against the database's key check (stored by the
// first start), and rotates it. A wrong or missing key stops the service: started anyway,
// it would seal new secrets under one key and fail to open the others.
type Policy struct {
	DataDir string   // where the key file lives
	EnvKey  string   // CREATORAPI_SECRET_KEY as configured ("" when unset)
	Store   KeyStore // the database's key check and sealed secrets
	Now     func() time.Time
}

// Load returns the master key: the configured one, or the key file's (created on the
// first run of a new database).
func (p Policy) Load(ctx context.Context) (MasterKey, error) {
	if p.EnvKey != "" {
		k, err := ParseMasterKey(p.EnvKey)
		if err != nil {
			return MasterKey{}, fmt.Errorf("CREATORAPI_SECRET_KEY: %w", err)
		}
		return k, nil
	}
	exists, err := KeyFileExists(p.DataDir)
	if err != nil {
		return MasterKey{}, fmt.Errorf("master key file: %w", err)
	}
	if !exists {
		// Generate a key only for a database that has none: a database holding a key
		// check was sealed under a key this instance does not have.
		if _, ok, _ := p.Store.StoredCheck(ctx); ok {
			return MasterKey{}, p.missingKey()
		}
	}
	return LoadOrCreate(p.DataDir)
}

// Prove refuses a key that does not open the database's key check, and stores a check
// made by key when the database has none (its first start). Run it after migrations.
func (p Policy) Prove(ctx context.Context, key MasterKey) error {
	if err := p.provesOnExistingSecrets(ctx, key); err != nil {
		return err
	}
	check, err := key.Check()
	if err != nil {
		return err
	}
	stored, err := p.Store.EnsureCheck(ctx, check, p.Now())
	if err != nil {
		return fmt.Errorf("store the master key check: %w", err)
	}
	if !key.Opens(stored) {
		return p.wrongKey()
	}
	return nil
}

// StillOpens tells whether key still opens the database's key check (another process
// may have rotated it since this one started): ErrWrongMasterKey when it does not.
func (p Policy) StillOpens(ctx context.Context, key MasterKey) error {
	stored, ok, err := p.Store.StoredCheck(ctx)
	if err != nil || !ok {
		return err
	}
	if !key.Opens(stored) {
		return p.wrongKey()
	}
	return nil
}

// provesOnExistingSecrets refuses a key that opens none of the newest signing secrets of a
// database that has no key check yet (one from before the check existed).
func (p Policy) provesOnExistingSecrets(ctx context.Context, key MasterKey) error {
	if _, ok, err := p.Store.StoredCheck(ctx); err != nil || ok {
		return err
	}
	box, err := NewBox(key.For(WebhookSecretsPurpose))
	if err != nil {
		return err
	}
	ok, err := p.Store.OpensExisting(ctx, 20, func(owner string, sealed []byte) bool {
		_, err := box.Open(owner, sealed)
		return err == nil
	})
	if err != nil {
		return err
	}
	if !ok {
		return p.wrongKey()
	}
	return nil
}

func (p Policy) keyFile() string { return filepath.Join(p.DataDir, KeyFileName) }

func (p Policy) missingKey() error {
	return fmt.Errorf("no master key: CREATORAPI_SECRET_KEY is unset and %s does not exist, but the database holds "+
		"secrets sealed under a master key. Give this instance the key the database was created with: copy %s from the "+
		"instance that created it (or from your backup), or set CREATORAPI_SECRET_KEY to it. Starting with a new key "+
		"would leave every webhook signing secret unreadable (docs/operations.md, \"Master key\")",
		p.keyFile(), KeyFileName)
}

func (p Policy) wrongKey() error {
	source := "CREATORAPI_SECRET_KEY"
	if p.EnvKey == "" {
		source = p.keyFile()
	}
	return fmt.Errorf("%w: the master key from %s is not the one this database's secrets were sealed with. "+
		"Every instance sharing a database needs the same key: copy %s from the instance that created the database "+
		"(or set CREATORAPI_SECRET_KEY to it) and start again. To change the key, run `creatorapi secret-key rotate` "+
		"with the current key (docs/operations.md, \"Master key\")", ErrWrongMasterKey, source, KeyFileName)
}

// Watch stops the instance (stop) when key no longer opens the key check (a rotation by
// another process): running on would seal new secrets under a key nobody else has.
func (p Policy) Watch(key MasterKey, logger *slog.Logger, stop func()) func(ctx context.Context) {
	return func(ctx context.Context) {
		if err := p.StillOpens(ctx, key); errors.Is(err, ErrWrongMasterKey) {
			logger.Error("master key no longer matches the database; stopping", "error", err)
			stop()
		}
	}
}
