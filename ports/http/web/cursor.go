package web

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
)

// Cursors seals keyset positions with AES-GCM. The list's name, its filters and the
// workspace are the associated data, so a cursor cannot be forged, read, or replayed
// against another workspace or list.
type Cursors struct {
	aead cipher.AEAD
}

// NewCursors builds the codec from a 32-byte key.
func NewCursors(key []byte) (*Cursors, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("cursor key: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("cursor cipher: %w", err)
	}
	return &Cursors{aead: aead}, nil
}

// Scope binds a cursor to one list of one workspace with its filters.
type Scope struct {
	List        string
	WorkspaceID string
	Filters     string
}

func (s Scope) aad() []byte {
	return []byte("v1\x00" + s.List + "\x00" + s.WorkspaceID + "\x00" + s.Filters)
}

// Encode seals p.
func (c *Cursors) Encode(s Scope, p platform.Position) string {
	plain := binary.BigEndian.AppendUint64(nil, uint64(p.CreatedAt.UnixMicro()))
	plain = append(plain, p.ID...)
	nonce := make([]byte, c.aead.NonceSize(), c.aead.NonceSize()+len(plain)+c.aead.Overhead())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(c.aead.Seal(nonce, nonce, plain, s.aad()))
}

// Decode opens a cursor issued for s; anything else is 422 naming the cursor parameter.
func (c *Cursors) Decode(s Scope, cursor string) (*platform.Position, error) {
	invalid := Invalid("cursor", "cursor was not issued for this list; pass pagination.cursor of the previous page unchanged")
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(raw) < c.aead.NonceSize()+c.aead.Overhead()+8 {
		return nil, invalid
	}
	n := c.aead.NonceSize()
	plain, err := c.aead.Open(nil, raw[:n], raw[n:], s.aad())
	if err != nil || len(plain) < 9 {
		return nil, invalid
	}
	at := time.UnixMicro(int64(binary.BigEndian.Uint64(plain[:8]))).UTC()
	return &platform.Position{CreatedAt: at, ID: string(plain[8:])}, nil
}
