package web

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// TextFault says what makes s unacceptable as text input, or "" when it is fine: text
// must be valid UTF-8 without NUL or other control characters (C0, DEL, C1). Multiline
// text (a description) may also hold tabs and line breaks. PostgreSQL refuses NUL and
// invalid UTF-8 outright and nothing downstream (logs, CSV, e-mail, HTML) wants the
// others, so every text input goes through here: bodies, query parameters, path
// segments, and the dashboard's forms.
func TextFault(s string, multiline bool) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !validRuneAt(s, i):
			return fmt.Sprintf("must be valid UTF-8 (invalid byte at offset %d)", i)
		case multiline && (r == '\t' || r == '\n' || r == '\r'):
		case unicode.IsControl(r):
			return fmt.Sprintf("must not contain control characters (U+%04X at offset %d)", r, i)
		}
	}
	return ""
}

// validRuneAt tells a literal U+FFFD from the marker of an invalid byte.
func validRuneAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 3
}

// CheckText is TextFault as a 422 naming field; nil when s is fine.
func CheckText(field, s string, multiline bool) error {
	if fault := TextFault(s, multiline); fault != "" {
		return Invalid(field, "%s %s", field, fault)
	}
	return nil
}
