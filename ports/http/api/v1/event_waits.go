package v1

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/creatorapi/creatorapi/ports/http/web"
)

// EventWaits bounds the long polls and streams open at once, per key and per instance:
// each holds a connection and a goroutine for up to its wait (a stream for up to an
// hour), which the per-minute limit alone would not bound.
type EventWaits struct {
	mu             sync.Mutex
	perKey         map[string]int
	total          int
	maxPerKey, max int
}

// Default bounds: a key's integration rarely needs more than a stream or two; the
// instance's bound stays well below the listener's connection cap (4,096).
const (
	MaxEventWaitsPerKey = 10
	MaxEventWaits       = 1000
)

// NewEventWaits builds the bounds.
func NewEventWaits(maxPerKey, max int) *EventWaits {
	return &EventWaits{perKey: map[string]int{}, maxPerKey: maxPerKey, max: max}
}

// waitRetryAfter is the Retry-After of a refused wait, in seconds.
const waitRetryAfter = 5

// acquire holds one wait of keyID; release gives it back. Beyond a bound the answer is
// 429 rate_limited with Retry-After.
func (w *EventWaits) acquire(keyID string) (release func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.perKey[keyID] >= w.maxPerKey || w.total >= w.max {
		wait := waitRetryAfter
		msg := fmt.Sprintf("too many long polls and streams open for this API key (at most %d at once); close one or retry later", w.maxPerKey)
		if w.total >= w.max {
			msg = "too many long polls and streams open on this server; retry later"
		}
		return nil, &web.Problem{Status: http.StatusTooManyRequests, Code: web.CodeRateLimited, Message: msg, RetryAfterSeconds: &wait}
	}
	w.perKey[keyID]++
	w.total++
	var once sync.Once
	return func() {
		once.Do(func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			w.total--
			if w.perKey[keyID]--; w.perKey[keyID] <= 0 {
				delete(w.perKey, keyID)
			}
		})
	}, nil
}
