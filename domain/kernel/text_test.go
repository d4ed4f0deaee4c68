package kernel

import (
	"strings"
	"testing"
)

func TestNormalizeEmail(t *testing.T) {
	for _, ok := range []string{"a@b.co", " Ann.Lee+crm@Example.COM "} {
		if _, err := NormalizeEmail("email", ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a", "a@b", "Ann <a@b.co>", "a@@b.co", strings.Repeat("a", 250) + "@b.co"} {
		if _, err := NormalizeEmail("email", bad); KindOf(err) != KindInvalid {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestRequireTextCountsCharactersNotBytes(t *testing.T) {
	if _, err := RequireText("title", strings.Repeat("é", 10), 10); err != nil {
		t.Fatalf("10 characters refused at max 10: %v", err)
	}
	if _, err := RequireText("title", strings.Repeat("é", 11), 10); err == nil {
		t.Fatal("11 characters accepted at max 10")
	}
}
