package keys

import (
	"sort"
	"strings"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// Scope grants access to one group of endpoints.
type Scope string

// The six scopes of the specification, and read:events (the events feed, docs/contract.md).
const (
	ReadCourses      Scope = "read:courses"
	ReadStudents     Scope = "read:students"
	WriteStudents    Scope = "write:students"
	ReadOrders       Scope = "read:orders"
	WriteEnrollments Scope = "write:enrollments"
	ReadAnalytics    Scope = "read:analytics"
	ReadEvents       Scope = "read:events"
)

// AllScopes lists every scope in the order the specification gives them, then ours.
var AllScopes = []Scope{ReadCourses, ReadStudents, WriteStudents, ReadOrders, WriteEnrollments, ReadAnalytics, ReadEvents}

// ParseScopes validates names, removes duplicates and sorts them; at least one is required.
func ParseScopes(names []string) ([]Scope, error) {
	seen := map[Scope]bool{}
	for _, n := range names {
		s := Scope(strings.TrimSpace(n))
		if !s.valid() {
			return nil, kernel.Invalid("scopes", "scopes: unknown scope %q", n)
		}
		seen[s] = true
	}
	if len(seen) == 0 {
		return nil, kernel.Invalid("scopes", "scopes: at least one scope is required")
	}
	out := make([]Scope, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

func (s Scope) valid() bool {
	for _, known := range AllScopes {
		if s == known {
			return true
		}
	}
	return false
}

// ScopeNames are the names of scopes, in order (how they are stored and shown).
func ScopeNames(scopes []Scope) []string {
	out := make([]string, len(scopes))
	for i, s := range scopes {
		out[i] = string(s)
	}
	return out
}
