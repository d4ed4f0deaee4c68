// Package backup writes and restores one-file backups of the service: the database (an
// online, consistent copy) with what a restore needs to serve (the master key, the
// operator token), described by a manifest with checksums. docs/operations.md, "Backup
// and restore".
package backup

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"time"
)

// Format names this layout; a restore refuses any other.
const Format = "creatorapi-backup/1"

// Names of the archive's entries.
const (
	ManifestName     = "manifest.json"
	SQLiteName       = "creatorapi.db"
	PostgresDumpName = "database.pgdump"
	KeyName          = "secret.key"
	TokenName        = "admin.token"
)

// Manifest describes a backup: it is the archive's first entry.
type Manifest struct {
	Format        string    `json:"format"`
	CreatedAt     time.Time `json:"createdAt"`
	AppVersion    string    `json:"appVersion"`
	AppRevision   string    `json:"appRevision"`
	Database      string    `json:"database"`      // sqlite or postgres
	SchemaVersion int64     `json:"schemaVersion"` // the goose version of the copied database
	Files         []File    `json:"files"`
}

// File is one entry after the manifest, with its size and SHA-256.
type File struct {
	Name   string `json:"name"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// describe reads path and returns its entry.
func describe(name, path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return File{}, fmt.Errorf("read %s: %w", name, err)
	}
	return File{Name: name, Size: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}
