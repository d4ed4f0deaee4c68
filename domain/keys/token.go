package keys

import (
	"crypto/sha256"
	"fmt"
	"hash/crc32"
	"io"
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// TokenPrefix is the service prefix of every secret (svc_...).
const TokenPrefix = "svc_"

// TestTokenPrefix starts the secret of a key of a sandbox workspace (svc_test_...), so a
// person and a secret scanner tell test keys from live ones at a glance. The prefix is
// part of what the stored hash covers: it cannot be edited onto a live key.
const TestTokenPrefix = TokenPrefix + "test_"

// A token is svc_ + lookup (12) + secret (32) + checksum (6), all base62.
// The lookup finds the row; the secret carries 32*log2(62) ≈ 190 random bits;
// the CRC-32 checksum lets a typo or a made-up key be refused without a lookup.
const (
	lookupLen   = 12
	secretLen   = 32
	checksumLen = 6
	bodyLen     = lookupLen + secretLen + checksumLen
	tokenLen    = len(TokenPrefix) + bodyLen
	base62      = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// Token is a parsed API key secret. Its String is the secret shown once to the user.
type Token struct {
	raw string
}

// GenerateToken draws a new live token from a cryptographic random source.
func GenerateToken(random io.Reader) (Token, error) { return generate(random, TokenPrefix) }

// GenerateTestToken draws a new svc_test_ token, the secret of a sandbox key.
func GenerateTestToken(random io.Reader) (Token, error) { return generate(random, TestTokenPrefix) }

func generate(random io.Reader, prefix string) (Token, error) {
	body, err := randomBase62(random, lookupLen+secretLen)
	if err != nil {
		return Token{}, fmt.Errorf("generate api key: %w", err)
	}
	unsigned := prefix + body
	return Token{raw: unsigned + checksum(unsigned)}, nil
}

// ParseToken checks shape and checksum; it never touches storage.
func ParseToken(s string) (Token, error) {
	prefix := TokenPrefix
	if strings.HasPrefix(s, TestTokenPrefix) {
		prefix = TestTokenPrefix
	}
	if len(s) != len(prefix)+bodyLen || !strings.HasPrefix(s, prefix) {
		return Token{}, malformedToken()
	}
	for i := len(prefix); i < len(s); i++ {
		if strings.IndexByte(base62, s[i]) < 0 {
			return Token{}, malformedToken()
		}
	}
	unsigned := s[:len(s)-checksumLen]
	var sum [checksumLen]byte
	if string(appendChecksum(sum[:0], unsigned)) != s[len(s)-checksumLen:] {
		return Token{}, malformedToken()
	}
	return Token{raw: s}, nil
}

func malformedToken() error { return kernel.Unauthenticated("malformed API key") }

// String returns the full secret.
func (t Token) String() string { return t.raw }

// Test tells whether t is the secret of a sandbox key (svc_test_...).
func (t Token) Test() bool { return strings.HasPrefix(t.raw, TestTokenPrefix) }

func (t Token) prefixLen() int {
	if t.Test() {
		return len(TestTokenPrefix)
	}
	return len(TokenPrefix)
}

// Lookup is the public part used to find the key row.
func (t Token) Lookup() string { return t.raw[t.prefixLen() : t.prefixLen()+lookupLen] }

// LastFour is the end of the checksum: it lets a person recognise a key, and reveals nothing
// of the secret part.
func (t Token) LastFour() string { return t.raw[len(t.raw)-4:] }

// Hash is what is stored: SHA-256 suffices for a secret of 190 random bits.
func (t Token) Hash() []byte {
	sum := t.sum()
	return sum[:]
}

// sum is the SHA-256 of the token, on the caller's stack (Verify runs per request).
func (t Token) sum() [sha256.Size]byte { return sha256.Sum256([]byte(t.raw)) }

func checksum(s string) string {
	var sum [checksumLen]byte
	return string(appendChecksum(sum[:0], s))
}

// appendChecksum appends s's CRC-32 in base 62 (digits 0-9a-zA-Z, big.Int's Text(62)),
// left-padded with '0' to checksumLen, without allocating.
func appendChecksum(dst []byte, s string) []byte {
	const digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	var out [checksumLen]byte
	// CRC-32 (IEEE) byte by byte over the string: crc32's own functions take a []byte,
	// and converting a token to one would allocate on every request.
	n := ^uint32(0)
	for i := 0; i < len(s); i++ {
		n = crc32.IEEETable[byte(n)^s[i]] ^ (n >> 8)
	}
	n = ^n
	for i := checksumLen - 1; i >= 0; i-- {
		out[i] = digits[n%62]
		n /= 62
	}
	return append(dst, out[:]...)
}

// randomBase62 draws n characters without modulo bias by rejecting bytes >= 248.
func randomBase62(random io.Reader, n int) (string, error) {
	out := make([]byte, 0, n)
	buf := make([]byte, n*2)
	for len(out) < n {
		if _, err := io.ReadFull(random, buf); err != nil {
			return "", err
		}
		for _, b := range buf {
			if b < 248 && len(out) < n {
				out = append(out, base62[b%62])
			}
		}
	}
	return string(out), nil
}
