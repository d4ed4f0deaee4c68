package keys

import (
	"bytes"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

func TestGeneratedTokenParsesAndCarriesEnoughEntropy(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		tok, err := GenerateToken(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		s := tok.String()
		if !strings.HasPrefix(s, "svc_") || len(s) != tokenLen {
			t.Fatalf("token %q: want svc_ prefix and %d characters", s, tokenLen)
		}
		parsed, err := ParseToken(s)
		if err != nil {
			t.Fatalf("parse own token %q: %v", s, err)
		}
		if parsed.Lookup() != tok.Lookup() || !bytes.Equal(parsed.Hash(), tok.Hash()) {
			t.Fatal("parsed token differs")
		}
		if seen[tok.Lookup()] {
			t.Fatalf("lookup %q drawn twice", tok.Lookup())
		}
		seen[tok.Lookup()] = true
	}
	// The secret part alone must carry at least 160 random bits.
	if bits := float64(secretLen) * 5.954; bits < 160 {
		t.Fatalf("secret part carries %.0f bits", bits)
	}
}

func TestParseTokenRefusesTyposAndForgeries(t *testing.T) {
	tok, _ := GenerateToken(rand.Reader)
	s := tok.String()
	flip := func(i int) string {
		b := []byte(s)
		if b[i] == 'a' {
			b[i] = 'b'
		} else {
			b[i] = 'a'
		}
		return string(b)
	}
	for name, bad := range map[string]string{
		"empty":            "",
		"wrong prefix":     "sk_" + s[4:],
		"truncated":        s[:len(s)-1],
		"extended":         s + "a",
		"typo in lookup":   flip(6),
		"typo in secret":   flip(30),
		"typo in checksum": flip(len(s) - 1),
		"non base62":       s[:10] + "-" + s[11:],
		"made up":          "svc_" + strings.Repeat("a", bodyLen),
	} {
		_, err := ParseToken(bad)
		if kernel.KindOf(err) != kernel.KindUnauthenticated {
			t.Errorf("%s: ParseToken(%q) = %v, want unauthenticated", name, bad, err)
		}
	}
}

func TestKeyVerifyRevokeAndScopes(t *testing.T) {
	tok, _ := GenerateToken(rand.Reader)
	other, _ := GenerateToken(rand.Reader)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k, err := New("key_1", "org_1", "ci", []string{"read:courses", "read:orders", "read:courses"}, Quota{}, tok, now)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Verify(tok) || k.Verify(other) {
		t.Fatal("Verify must accept the key's own token only")
	}
	if len(k.Scopes) != 2 || !k.Allows(ReadCourses) || k.Allows(ReadStudents) {
		t.Fatalf("scopes %v", k.Scopes)
	}
	if k.PerMinute != 60 || k.PerDay != 1000 {
		t.Fatalf("default quota %d/%d, want 60/1000", k.PerMinute, k.PerDay)
	}
	k.Revoke(now)
	k.Revoke(now.Add(time.Hour))
	if k.Active() || !k.RevokedAt.Equal(now) {
		t.Fatalf("revocation %v, want first revocation kept", k.RevokedAt)
	}
}

func TestNewKeyValidation(t *testing.T) {
	tok, _ := GenerateToken(rand.Reader)
	now := time.Now()
	for name, c := range map[string]struct {
		name   string
		scopes []string
		quota  Quota
		field  string
	}{
		"no name":        {"", []string{"read:courses"}, Quota{}, "name"},
		"no scopes":      {"k", nil, Quota{}, "scopes"},
		"unknown scope":  {"k", []string{"write:courses"}, Quota{}, "scopes"},
		"negative quota": {"k", []string{"read:courses"}, Quota{PerMinute: -1}, "perMinute"},
		"huge quota":     {"k", []string{"read:courses"}, Quota{PerDay: 2_000_000_000}, "perDay"},
	} {
		_, err := New("key_1", "org_1", c.name, c.scopes, c.quota, tok, now)
		var ke *kernel.Error
		if err == nil || !asKernel(err, &ke) || ke.Field != c.field {
			t.Errorf("%s: got %v, want invalid %s", name, err, c.field)
		}
	}
	k, err := New("key_1", "org_1", "enterprise", []string{"read:courses"}, Quota{PerMinute: 600, PerDay: 50000}, tok, now)
	if err != nil || k.PerMinute != 600 || k.PerDay != 50000 {
		t.Fatalf("custom quota: %v %+v", err, k)
	}
}

func asKernel(err error, target **kernel.Error) bool {
	e, ok := err.(*kernel.Error)
	*target = e
	return ok
}

func TestTestTokensParseAndKeepTheirPrefix(t *testing.T) {
	tok, err := GenerateTestToken(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok.String(), "svc_test_") || !tok.Test() {
		t.Fatalf("test token %q: want svc_test_ prefix", tok)
	}
	parsed, err := ParseToken(tok.String())
	if err != nil || !parsed.Test() || parsed.Lookup() != tok.Lookup() {
		t.Fatalf("parse %q: %v test=%v", tok, err, parsed.Test())
	}
	live, _ := GenerateToken(rand.Reader)
	if live.Test() {
		t.Fatal("a live token reads as a test token")
	}
	// The prefix is under the checksum: moving a live secret into test mode is refused.
	if _, err := ParseToken("svc_test_" + strings.TrimPrefix(live.String(), "svc_")); err == nil {
		t.Fatal("a live secret with a test prefix parsed")
	}
}
