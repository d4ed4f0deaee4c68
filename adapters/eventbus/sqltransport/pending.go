package watermill

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
)

// pendingBatch answers the caught-up subscribers' safety checks of one instance in one
// statement: their gates wake on the same second boundary (gate.wait), the first check
// waits gatherWindow for the others, and one query asks for every part at once whether
// anything lies beyond its position (12 index probes in one round trip instead of 12).
type pendingBatch struct {
	pos   *Positions
	mu    sync.Mutex
	round *pendingRound // the round being gathered; nil when none
}

// gatherWindow is how long the first check of a round waits for the others.
const gatherWindow = 5 * time.Millisecond

type pendingRound struct {
	parts  []Part
	done   chan struct{}
	behind []bool
	err    error
}

// behind tells whether anything lies beyond p's position, asked together with the
// checks of other parts that arrive within gatherWindow.
func (b *pendingBatch) behind(ctx context.Context, p Part) (bool, error) {
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
		r.behind, r.err = b.pos.partsBehind(context.WithoutCancel(ctx), r.parts)
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

// partsBehind tells, for each part, whether events lie beyond its position (PostgreSQL),
// in one statement: one behindQuery per part, side by side.
func (p *Positions) partsBehind(ctx context.Context, parts []Part) ([]bool, error) {
	cols := make([]string, len(parts))
	args := make([]any, len(parts))
	out := make([]bool, len(parts))
	dest := make([]any, len(parts))
	for i, part := range parts {
		cols[i] = "(" + strings.ReplaceAll(p.behindQuery(part.Parts, part.Part), "$1", fmt.Sprintf("$%d", i+1)) + ")"
		args[i] = part.Group()
		dest[i] = &out[i]
	}
	if err := p.db.Read(ctx).QueryRowxContext(ctx, "SELECT "+strings.Join(cols, ", "), args...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("positions of %d parts: %w", len(parts), err)
	}
	return out, nil
}
