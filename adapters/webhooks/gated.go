package webhooks

import (
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// waitForSlot holds a rate-limited endpoint's delivery until its send slot (at most the
// claim's horizon, a second, ahead): slots are spaced by the endpoint's interval and taken
// under its row's lock, so no instance sends more than the limit in any second, plus one.
func waitForSlot(clock platform.Clock, l webhooks.Lease) {
	if l.NotBefore.IsZero() {
		return
	}
	if wait := l.NotBefore.Sub(clock.Now()); wait > 0 {
		time.Sleep(wait)
	}
}
