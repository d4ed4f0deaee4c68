package config

import (
	"strings"
	"testing"
)

// A short operator token is refused at start with a message that says what to do; unset,
// one is generated; 32 characters and more are accepted.
func TestShortAdminTokenIsRefused(t *testing.T) {
	for _, token := range []string{"x", "test-admin-token", strings.Repeat("a", 31)} {
		_, err := Load(env(map[string]string{"CREATORAPI_ADMIN_TOKEN": token}))
		if err == nil || !strings.Contains(err.Error(), "at least 32") || !strings.Contains(err.Error(), "CREATORAPI_ADMIN_TOKEN") {
			t.Errorf("token of %d characters: %v, want a refusal", len(token), err)
		}
	}
	for _, token := range []string{"", strings.Repeat("a", 32), strings.Repeat("b", 64)} {
		if _, err := Load(env(map[string]string{"CREATORAPI_ADMIN_TOKEN": token})); err != nil {
			t.Errorf("token of %d characters: %v", len(token), err)
		}
	}
}
