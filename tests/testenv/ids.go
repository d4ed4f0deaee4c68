package testenv

import (
	"fmt"
	"sync"
)

// SequentialIDs makes prefix_000…N, counting per prefix, so that a test driving the API
// in order gets the same ids on every run (golden files). Swap it in with
// fx.Replace(fx.Annotate(testenv.NewSequentialIDs(), fx.As(new(platform.IDs)))).
type SequentialIDs struct {
	mu   sync.Mutex
	next map[string]int
}

// NewSequentialIDs starts every prefix at 1.
func NewSequentialIDs() *SequentialIDs { return &SequentialIDs{next: map[string]int{}} }

// New returns the next id of prefix, as long as a ULID (26 characters).
func (s *SequentialIDs) New(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next[prefix]++
	return fmt.Sprintf("%s_%026d", prefix, s.next[prefix])
}
