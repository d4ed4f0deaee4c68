package courses

import (
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

const maxSlug = 80

// ValidateSlug accepts lowercase ASCII letters, digits and single hyphens.
func ValidateSlug(slug string) error {
	if slug == "" || len(slug) > maxSlug || slug[0] == '-' || slug[len(slug)-1] == '-' || strings.Contains(slug, "--") {
		return kernel.Invalid("slug", "slug must be 1 to %d lowercase letters, digits and single hyphens", maxSlug)
	}
	for _, r := range slug {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return kernel.Invalid("slug", "slug must be 1 to %d lowercase letters, digits and single hyphens", maxSlug)
		}
	}
	return nil
}

// SlugFromTitle derives a slug: ASCII letters and digits kept, every other run becomes one hyphen.
func SlugFromTitle(title string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			hyphen = false
		case !hyphen && b.Len() > 0:
			b.WriteByte('-')
			hyphen = true
		}
	}
	s := strings.Trim(b.String(), "-")
	if len(s) > maxSlug-8 {
		s = strings.TrimRight(s[:maxSlug-8], "-")
	}
	if s == "" {
		s = "course"
	}
	return s
}
