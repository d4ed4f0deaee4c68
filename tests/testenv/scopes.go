package testenv

import "github.com/creatorapi/creatorapi/domain/keys"

// AllScopes is every scope a key can hold, as the API spells them.
func AllScopes() []string {
	out := make([]string, len(keys.AllScopes))
	for i, s := range keys.AllScopes {
		out[i] = string(s)
	}
	return out
}
