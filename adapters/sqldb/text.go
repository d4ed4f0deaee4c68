package sqldb

import (
	"strings"
	"unicode"
)

// Text makes a string from outside our control (an error message from a mail server, a
// consumer's error) storable in a text column of both engines: invalid UTF-8 becomes
// U+FFFD and control characters other than tab and newline are dropped. PostgreSQL
// refuses NUL and invalid UTF-8 (SQLSTATE 22021, 22P05), and a failing write of a
// diagnostic must never stall the loop that records it.
func Text(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
}
