package webhooks

import (
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"io"
	"strings"
)

// SecretPrefix starts every signing secret, as in the Standard Webhooks format.
const SecretPrefix = "whsec_"

// secretBytes is the number of random bytes of a secret (256 bits).
const secretBytes = 32

// Secret is a signing secret: whsec_ + base64 of 32 random bytes.
type Secret struct {
	raw string
}

// GenerateSecret draws a new secret from a cryptographic random source.
func GenerateSecret(random io.Reader) (Secret, error) {
	b := make([]byte, secretBytes)
	if _, err := io.ReadFull(random, b); err != nil {
		return Secret{}, fmt.Errorf("generate signing secret: %w", err)
	}
	return Secret{raw: SecretPrefix + base64.StdEncoding.EncodeToString(b)}, nil
}

// ParseSecret reads a stored secret back.
func ParseSecret(s string) (Secret, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(s, SecretPrefix))
	if !strings.HasPrefix(s, SecretPrefix) || err != nil || len(b) < secretBytes {
		return Secret{}, fmt.Errorf("malformed signing secret")
	}
	return Secret{raw: s}, nil
}

// String is the whole secret, as shown once to its owner. It keys X-SVC-Signature.
func (s Secret) String() string { return s.raw }

// Key is the decoded random bytes: the key of the Standard Webhooks signature.
func (s Secret) Key() []byte {
	b, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(s.raw, SecretPrefix))
	return b
}

// Equal compares in constant time.
func (s Secret) Equal(o Secret) bool {
	return subtle.ConstantTimeCompare([]byte(s.raw), []byte(o.raw)) == 1
}
