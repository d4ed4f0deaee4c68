// Package secrets loads the service's master key, from which purpose-bound keys are derived.
package secrets

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MasterKey is 32 secret bytes. Derive purpose-specific keys with For; never use it directly.
type MasterKey struct {
	key []byte
}

// ParseMasterKey accepts 64 hex characters or the base64 of 32 bytes.
func ParseMasterKey(s string) (MasterKey, error) {
	s = strings.TrimSpace(s)
	if b, err := hex.DecodeString(s); err == nil && len(b) == 32 {
		return MasterKey{key: b}, nil
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil && len(b) == 32 {
			return MasterKey{key: b}, nil
		}
	}
	return MasterKey{}, errors.New("secret key must be 64 hex characters or base64 of 32 bytes")
}

// LoadOrCreate reads the key file in dataDir, creating it (mode 0600) on first run.
func LoadOrCreate(dataDir string) (MasterKey, error) {
	raw, err := loadOrCreateFile(filepath.Join(dataDir, KeyFileName), 32)
	if err != nil {
		return MasterKey{}, err
	}
	return ParseMasterKey(raw)
}

// LoadOrCreateToken reads a bearer token kept in dataDir/name, creating it (mode 0600,
// 256 random bits in hex) on first run.
func LoadOrCreateToken(dataDir, name string) (string, error) {
	return loadOrCreateFile(filepath.Join(dataDir, name), 32)
}

// loadOrCreateFile returns the trimmed content of path, writing n random bytes in hex
// there first if the file does not exist. Concurrent first runs agree on one value.
func loadOrCreateFile(path string, n int) (string, error) {
	raw, err := os.ReadFile(path)
	if err == nil {
		return strings.TrimSpace(string(raw)), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("create data folder: %w", err)
	}
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate %s: %w", path, err)
	}
	value := hex.EncodeToString(b)
	err = writeSecret(path, os.O_EXCL, value)
	if errors.Is(err, fs.ErrExist) {
		return loadOrCreateFile(path, n)
	}
	return value, err
}

// writeSecret writes value and a newline to path, mode 0600, created or opened as flag
// says (os.O_EXCL, os.O_TRUNC), and syncs it.
func writeSecret(path string, flag int, value string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag, 0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer f.Close()
	if _, err := f.WriteString(value + "\n"); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Sync()
}

// KeyFileName is the master key's file in the data folder.
const KeyFileName = "secret.key"

// KeyFileExists tells whether dataDir holds a master key file.
func KeyFileExists(dataDir string) (bool, error) {
	_, err := os.Stat(filepath.Join(dataDir, KeyFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return err == nil, err
}

// WriteKeyFile writes key into dataDir/name, mode 0600.
func WriteKeyFile(dataDir, name string, key MasterKey) error {
	return writeSecret(filepath.Join(dataDir, name), os.O_TRUNC, key.Hex())
}

// ReplaceKeyFile makes key dataDir's key file (mode 0600) through KeyFileName.new and a
// rename, so that the file is never half written.
func ReplaceKeyFile(dataDir string, key MasterKey) error {
	if err := WriteKeyFile(dataDir, KeyFileName+".new", key); err != nil {
		return err
	}
	path := filepath.Join(dataDir, KeyFileName)
	if err := os.Rename(path+".new", path); err != nil {
		return fmt.Errorf("replace %s (the new key is in %s.new): %w", path, path, err)
	}
	return nil
}

// For derives the 32-byte key of one purpose ("cursor/v1", "webhook-secrets/v1", ...).
func (m MasterKey) For(purpose string) []byte {
	mac := hmac.New(sha256.New, m.key)
	mac.Write([]byte(purpose))
	return mac.Sum(nil)
}

// AdminToken is the operator token: the configured one, else one kept in
// dataDir/admin.token.
func AdminToken(configured, dataDir string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	return LoadOrCreateToken(dataDir, "admin.token")
}
