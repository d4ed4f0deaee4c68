package webhooks

import (
	"sort"
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// ParseEventTypes trims, validates against known, removes duplicates and sorts.
func ParseEventTypes(names, known []string) ([]string, error) {
	allowed := map[string]bool{}
	for _, k := range known {
		allowed[k] = true
	}
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if !allowed[n] {
			return nil, kernel.Invalid("events", "events: unknown event type %q; choose among %s", n, strings.Join(known, ", "))
		}
		seen[n] = true
	}
	if len(seen) == 0 {
		return nil, kernel.Invalid("events", "events: choose at least one event type")
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}
