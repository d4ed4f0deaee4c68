package secrets

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
)

// Purposes of the keys derived from the master key. Rotating the master key re-seals what
// is sealed under WebhookSecretsPurpose and replaces the key check; the rest is derived
// afresh (pagination cursors issued before a rotation are refused afterwards).
const (
	WebhookSecretsPurpose = "webhook-secrets/v1"
	keyCheckPurpose       = "key-check/v1"
	keyCheckOwner         = "creatorapi-master-key"
	keyCheckPlain         = "creatorapi master key check"
)

// ErrWrongMasterKey reports a master key that does not open the database's key check.
var ErrWrongMasterKey = errors.New("the master key does not open the database's key check")

// GenerateMasterKey draws a new random master key.
func GenerateMasterKey() (MasterKey, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return MasterKey{}, fmt.Errorf("generate master key: %w", err)
	}
	return MasterKey{key: b}, nil
}

// Hex is the key as CREATORAPI_SECRET_KEY and the key file spell it.
func (m MasterKey) Hex() string { return hex.EncodeToString(m.key) }

// Check returns a new key check: a known value sealed under the key (base64). Stored in
// the database at first start, it lets every later start tell whether its key is the one
// the database's secrets were sealed with.
func (m MasterKey) Check() (string, error) {
	box, err := NewBox(m.For(keyCheckPurpose))
	if err != nil {
		return "", err
	}
	sealed, err := box.Seal(keyCheckOwner, []byte(keyCheckPlain))
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sealed), nil
}

// Opens tells whether check was made by this key.
func (m MasterKey) Opens(check string) bool {
	sealed, err := base64.StdEncoding.DecodeString(check)
	if err != nil {
		return false
	}
	box, err := NewBox(m.For(keyCheckPurpose))
	if err != nil {
		return false
	}
	plain, err := box.Open(keyCheckOwner, sealed)
	return err == nil && string(plain) == keyCheckPlain
}
