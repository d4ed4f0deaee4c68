package kernel

import (
	"strings"
	"unicode/utf8"
)

// RequireText trims s and checks it is present and at most max characters long.
func RequireText(field, s string, max int) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", Invalid(field, "%s is required", field)
	}
	return s, MaxLength(field, s, max)
}

// MaxLength checks that s has at most max characters (not bytes).
func MaxLength(field, s string, max int) error {
	if utf8.RuneCountInString(s) > max {
		return Invalid(field, "%s must be at most %d characters", field, max)
	}
	return nil
}
