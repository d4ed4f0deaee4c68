// Package ids makes prefixed, time-sortable identifiers: prefix_ + lowercase ULID.
package ids

import (
	"crypto/rand"
	"io"
	"strings"
	"sync"

	"github.com/oklog/ulid"

	"github.com/creatorapi/creatorapi/application/platform"
)

// ULIDs generates ids; within one millisecond they increase monotonically.
type ULIDs struct {
	clock   platform.Clock // ids sort like creation times
	mu      sync.Mutex
	entropy io.Reader
}

// NewULIDs builds a generator on clock.
func NewULIDs(clock platform.Clock) *ULIDs {
	return &ULIDs{clock: clock, entropy: ulid.Monotonic(rand.Reader, 0)}
}

// New returns prefix_<ulid>.
func (g *ULIDs) New(prefix string) string {
	g.mu.Lock()
	id, err := ulid.New(ulid.Timestamp(g.clock.Now()), g.entropy)
	g.mu.Unlock()
	if err != nil {
		// Only reachable when 2^80 ids are drawn in one millisecond or crypto/rand fails.
		panic("ids: " + err.Error())
	}
	return prefix + "_" + strings.ToLower(id.String())
}
