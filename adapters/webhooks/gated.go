package webhooks

import (
	"sync"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// slots holds a rate-limited endpoint's delivery until its send slot (at most the claim's
// horizon, a second, ahead): slots are spaced by the endpoint's interval and taken under
// its row's lock, so that instances share the limit. Within one instance the sends are
// also spaced by the interval from the previous send: a send that started late (a busy
// machine, a slow claim) then pushes the next ones back instead of bunching with them.
type slots struct {
	mu   sync.Mutex
	next map[string]time.Time // endpoint id: the earliest start of its next send here
}

func (s *slots) wait(clock platform.Clock, l webhooks.Lease) {
	rate := 0
	if l.Endpoint != nil {
		rate = l.Endpoint.Pacing.RateLimit
	}
	if l.NotBefore.IsZero() && rate <= 0 {
		return
	}
	at := l.NotBefore
	if rate > 0 {
		now := clock.Now()
		s.mu.Lock()
		if s.next == nil || len(s.next) > 1024 { // forget endpoints whose slot is long past
			s.next = map[string]time.Time{}
		}
		if n := s.next[l.Endpoint.ID]; n.After(at) {
			at = n
		}
		if at.Before(now) {
			at = now
		}
		s.next[l.Endpoint.ID] = at.Add(time.Second / time.Duration(rate))
		s.mu.Unlock()
	}
	if wait := at.Sub(clock.Now()); wait > 0 {
		time.Sleep(wait)
	}
}
