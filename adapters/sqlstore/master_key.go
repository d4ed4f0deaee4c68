package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/adapters/secrets"
	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/application/webhooks"
)

// keyCheckSetting names the key check in the settings table.
const keyCheckSetting = "master_key_check"

// MasterKeyStore keeps the key check (a value sealed under the master key) and re-seals
// what the master key protects when it is rotated: the webhooks module's signing
// secrets, through its published port (wired in the composition root).
type MasterKeyStore struct {
	db                             *sqldb.DB
	secrets                        webhooks.SealedSecrets
	get, getForUpdate, insert, put string
}

// NewMasterKeyStore prepares the statements for db's dialect.
func NewMasterKeyStore(db *sqldb.DB, secrets webhooks.SealedSecrets) *MasterKeyStore {
	get := `SELECT value FROM settings WHERE name = '` + keyCheckSetting + `'`
	return &MasterKeyStore{
		db:           db,
		secrets:      secrets,
		get:          get,
		getForUpdate: get + db.ForUpdate(),
		// Two instances starting together on a new database: the first check stays.
		insert: db.Rebind(`INSERT INTO settings (name, value, updated_at) VALUES ('` + keyCheckSetting + `', ?, ?)
			ON CONFLICT (name) DO NOTHING`),
		put: db.Rebind(`UPDATE settings SET value = ?, updated_at = ? WHERE name = '` + keyCheckSetting + `'`),
	}
}

// StoredCheck returns the key check, if the database has one. Before migrations (a new
// database) the settings table may be missing: that reads as no check.
func (s *MasterKeyStore) StoredCheck(ctx context.Context) (string, bool, error) {
	var value string
	err := s.db.Read(ctx).GetContext(ctx, &value, s.get)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read the master key check: %w", err)
	}
	return value, true, nil
}

// EnsureCheck stores check when the database has none yet and returns the check the
// database holds (the one just stored, or an older one to verify the key against).
func (s *MasterKeyStore) EnsureCheck(ctx context.Context, check string, now time.Time) (string, error) {
	var stored string
	err := s.db.WithinTx(ctx, func(ctx context.Context) error {
		if _, err := s.db.Write(ctx).ExecContext(ctx, s.insert, check, now); err != nil {
			return fmt.Errorf("store the master key check: %w", err)
		}
		if err := s.db.Write(ctx).GetContext(ctx, &stored, s.get); err != nil {
			return fmt.Errorf("read the master key check: %w", err)
		}
		return nil
	})
	return stored, err
}

// OpensExisting tells whether open opens at least one of the newest n sealed secrets, or
// there are none. A database from before the key check has secrets but no check: the key
// must prove itself on them before its check is stored.
func (s *MasterKeyStore) OpensExisting(ctx context.Context, n int, open func(owner string, sealed []byte) bool) (bool, error) {
	return s.secrets.OpensAny(ctx, n, open)
}

// Resealer and Rotation are the master key policy's (adapters/secrets); kept here under
// their old names for the store's callers.
type (
	Resealer = secrets.Resealer
	Rotation = secrets.Rotation
)

// Rotate re-seals every webhook signing secret under the new key and replaces the key
// check, in one transaction: either everything moves to the new key or nothing does.
// It refuses to run when the old key does not open the stored check.
func (s *MasterKeyStore) Rotate(ctx context.Context, r Resealer, now time.Time) (Rotation, error) {
	out := Rotation{Unreadable: []string{}}
	err := s.db.WithinTx(ctx, func(ctx context.Context) error {
		var check string
		err := s.db.Write(ctx).GetContext(ctx, &check, s.getForUpdate)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("read the master key check: %w", err)
		}
		if err == nil && !r.Opens(check) {
			return errors.New("the current master key does not open the database's key check: rotate with the key the database was sealed with")
		}
		resealed, unreadable, err := s.secrets.ResealAll(ctx, func(owner string, sealed []byte) ([]byte, error) {
			return reseal(r, owner, sealed)
		})
		if err != nil {
			return err
		}
		out.Resealed, out.Unreadable = resealed, unreadable
		if _, err := s.db.Write(ctx).ExecContext(ctx, s.insert, r.NewCheck, now); err != nil {
			return fmt.Errorf("store the master key check: %w", err)
		}
		if _, err := s.db.Write(ctx).ExecContext(ctx, s.put, r.NewCheck, now); err != nil {
			return fmt.Errorf("store the master key check: %w", err)
		}
		return nil
	})
	if err != nil {
		return Rotation{}, fmt.Errorf("rotate the master key: %w", err)
	}
	return out, nil
}

func reseal(r Resealer, owner string, sealed []byte) ([]byte, error) {
	plain, err := r.Old.Open(owner, sealed)
	if err != nil {
		return nil, err
	}
	return r.New.Seal(owner, plain)
}
