package kernel

import (
	"unicode"
	"unicode/utf8"
)

// RefuseFormatControls refuses text holding a Unicode format character (category Cf:
// the bidi overrides and isolates, zero-width spaces and joiners, the soft hyphen...).
// They are invisible, so a name or address holding one reads as something it is not
// (a right-to-left override turns "gpj.exe" around).
func RefuseFormatControls(field, s string) error {
	for i, r := range s {
		if r != utf8.RuneError && unicode.Is(unicode.Cf, r) {
			return Invalid(field, "%s must not contain invisible format characters (U+%04X at offset %d)", field, r, i)
		}
	}
	return nil
}

// RequireName is RequireText for a name people read (a workspace's, a key's): present,
// at most max characters, without invisible format characters.
func RequireName(field, s string, max int) (string, error) {
	s, err := RequireText(field, s, max)
	if err != nil {
		return "", err
	}
	return s, RefuseFormatControls(field, s)
}
