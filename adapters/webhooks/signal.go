package webhooks

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/creatorapi/creatorapi/adapters/sqldb"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Signal wakes the dispatcher: new deliveries were written, or room was freed. It is a
// hint that coalesces; the dispatcher polls as well. It also carries the deliveries the
// fan-out leased to this process's dispatcher (see CommitWaker.Hand).
type Signal struct {
	c       chan struct{} // claim: deliveries may be due
	room    chan struct{} // no claim needed: leases handed, or room freed
	leasing atomic.Bool   // a dispatcher runs (Dispatcher.Run) and takes handed leases

	mu     sync.Mutex
	handed []webhooks.Lease
}

// NewSignal builds a signal.
func NewSignal() *Signal { return &Signal{c: make(chan struct{}, 1), room: make(chan struct{}, 1)} }

// Wake never blocks.
func (s *Signal) Wake() {
	select {
	case s.c <- struct{}{}:
	default:
	}
}

// C delivers wake-ups.
func (s *Signal) C() <-chan struct{} { return s.c }

// poke wakes the dispatcher to start handed leases within its room, without a claim.
func (s *Signal) poke() {
	select {
	case s.room <- struct{}{}:
	default:
	}
}

func (s *Signal) hand(leases []webhooks.Lease) {
	s.mu.Lock()
	unleased := false
	for _, l := range leases {
		if l.Token == "" {
			unleased = true // a gated endpoint's: the gated claim takes it
			continue
		}
		s.handed = append(s.handed, l)
	}
	s.mu.Unlock()
	s.poke()
	if unleased {
		s.Wake()
	}
}

// takeHanded removes and returns the handed leases keep accepts, in the order handed.
func (s *Signal) takeHanded(keep func(webhooks.Lease) bool) []webhooks.Lease {
	s.mu.Lock()
	defer s.mu.Unlock()
	var taken []webhooks.Lease
	rest := s.handed[:0]
	for _, l := range s.handed {
		if keep(l) {
			taken = append(taken, l)
		} else {
			rest = append(rest, l)
		}
	}
	clear(s.handed[len(rest):])
	s.handed = rest
	return taken
}

// CommitWaker wakes the dispatcher once the transaction in ctx has committed (the
// fan-out's is a subscriber's batch, committed after its handlers return), so that the
// claim that follows finds the new deliveries.
type CommitWaker struct{ Signal *Signal }

// Wake implements the application's Waker.
func (w CommitWaker) Wake(ctx context.Context) {
	if !sqldb.AfterCommit(ctx, w.Signal.Wake) {
		w.Signal.Wake()
	}
}

// maxHanded bounds the handed leases waiting for room (an endpoint at its limit): beyond
// it, new deliveries are written unleased and wait for a claim, which any instance can make
// (a lease waiting here is this instance's alone until it is sent or released).
const maxHanded = 128

// Leasing implements the application's Handoff: only a running dispatcher takes leases,
// and only while few wait for room.
func (w CommitWaker) Leasing() bool {
	if !w.Signal.leasing.Load() {
		return false
	}
	w.Signal.mu.Lock()
	defer w.Signal.mu.Unlock()
	return len(w.Signal.handed) < maxHanded
}

// Hand implements the application's Handoff: the leases reach the dispatcher after the
// commit that wrote them, never after a rollback (the rows then do not exist).
func (w CommitWaker) Hand(ctx context.Context, leases []webhooks.Lease) {
	if !sqldb.AfterCommit(ctx, func() { w.Signal.hand(leases) }) {
		w.Signal.hand(leases)
	}
}
