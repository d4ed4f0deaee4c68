package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// Box seals small secrets at rest with AES-256-GCM. The caller names what a secret
// belongs to (a subscription id) as associated data: a sealed value copied onto another
// row does not open there.
type Box struct {
	aead cipher.AEAD
}

// NewBox builds a box from a 32-byte key (MasterKey.For("webhook-secrets/v1")).
func NewBox(key []byte) (*Box, error) {
	if len(key) != 32 {
		return nil, errors.New("secret box: key must be 32 bytes")
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secret box: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secret box: %w", err)
	}
	return &Box{aead: aead}, nil
}

// Seal returns nonce || ciphertext of plain, bound to owner.
func (b *Box) Seal(owner string, plain []byte) ([]byte, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plain)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return b.aead.Seal(nonce, nonce, plain, []byte(owner)), nil
}

// Open reverses Seal; it fails for another owner, another key or altered bytes.
func (b *Box) Open(owner string, sealed []byte) ([]byte, error) {
	n := b.aead.NonceSize()
	if len(sealed) < n+b.aead.Overhead() {
		return nil, errors.New("open sealed secret: too short")
	}
	plain, err := b.aead.Open(nil, sealed[:n], sealed[n:], []byte(owner))
	if err != nil {
		return nil, fmt.Errorf("open sealed secret of %s: %w", owner, err)
	}
	return plain, nil
}
