package sqltransport

import (
	"context"
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/adapters/eventbus"
	"github.com/creatorapi/creatorapi/adapters/eventbus/router"
)

// pendingBatch answers the caught-up subscribers' safety checks of one instance in one
// statement: their gates wake on the same second boundary (gate.wait), the first check
// waits gatherWindow for the others, and one query asks for every part at once whether
// anything lies beyond its position (12 index probes in one round trip instead of 12).
type pendingBatch struct {
	pos   *router.Positions
	mu    sync.Mutex
	round *pendingRound // the round being gathered; nil when none
}

// gatherWindow is how long the first check of a round waits for the others.
const gatherWindow = 5 * time.Millisecond

type pendingRound struct {
	parts  []eventbus.Part
	done   chan struct{}
	behind []bool
	err    error
}

// behind tells whether anything lies beyond p's position, asked together with the
// checks of other parts that arrive within gatherWindow.
func (b *pendingBatch) behind(ctx context.Context, p eventbus.Part) (bool, error) {
	b.mu.Lock()
	r := b.round
	leader := r == nil
	if leader {
		r = &pendingRound{done: make(chan struct{})}
		b.round = r
	}
	i := len(r.parts)
	r.parts = append(r.parts, p)
	b.mu.Unlock()
	if leader {
		time.Sleep(gatherWindow)
		b.mu.Lock()
		b.round = nil
		b.mu.Unlock()
		r.behind, r.err = b.pos.PartsBehind(context.WithoutCancel(ctx), r.parts)
		close(r.done)
	} else {
		select {
		case <-r.done:
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
	if r.err != nil {
		return false, r.err
	}
	return r.behind[i], nil
}
