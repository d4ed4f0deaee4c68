package kernel

import (
	"net/mail"
	"strings"

	"golang.org/x/net/idna"
)

// MaxEmail is the longest address accepted (RFC 5321's path limit less the brackets).
const MaxEmail = 254

// NormalizeEmail validates an address (a bare addr-spec, at most 254 characters) and
// returns it in the one form it is stored and compared in: the local part in printable
// ASCII, as given; the domain as given when ASCII, else in its IDNA A-label form
// (xn--...). Format controls (zero-width, bidi) are refused anywhere, and nothing is
// folded by Unicode rules: under strings.ToLower the Kelvin sign (U+212A) would become
// "k" and one address would pass for another. Compare with EmailKey.
func NormalizeEmail(field, email string) (string, error) {
	email = strings.TrimSpace(email)
	if email == "" {
		return "", Invalid(field, "%s is required", field)
	}
	if err := RefuseFormatControls(field, email); err != nil {
		return "", err
	}
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return "", Invalid(field, "%s must be a valid e-mail address", field)
	}
	local, domain := email[:at], email[at+1:]
	if !printableASCII(local) {
		return "", Invalid(field, "%s must have an ASCII local part (before the @)", field)
	}
	if !printableASCII(domain) {
		ascii, err := idna.Registration.ToASCII(LowerASCII(domain))
		if err != nil {
			return "", Invalid(field, "%s must have a valid internationalized domain name", field)
		}
		domain = ascii
		email = local + "@" + domain
	}
	if len(email) > MaxEmail {
		return "", Invalid(field, "%s must be at most %d characters", field, MaxEmail)
	}
	addr, err := mail.ParseAddress(email)
	if err != nil || addr.Address != email || addr.Name != "" || !strings.Contains(domain, ".") {
		return "", Invalid(field, "%s must be a valid e-mail address", field)
	}
	return email, nil
}

// EmailKey is the form in which normalized addresses are compared: ASCII letters
// folded to lower case, nothing else touched (see NormalizeEmail).
func EmailKey(email string) string { return LowerASCII(strings.TrimSpace(email)) }

// LowerASCII folds A-Z to a-z and leaves every other byte as it is.
func LowerASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, s)
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
