package kernel

import (
	"net/mail"
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

// NormalizeEmail validates an address (a bare addr-spec, at most 254 characters)
// and returns it trimmed; comparison is done case-insensitively by the caller.
func NormalizeEmail(field, email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", Invalid(field, "%s is required", field)
	}
	if len(email) > 254 {
		return "", Invalid(field, "%s must be at most 254 characters", field)
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" || !strings.Contains(email[strings.LastIndexByte(email, '@')+1:], ".") {
		return "", Invalid(field, "%s must be a valid e-mail address", field)
	}
	return email, nil
}
