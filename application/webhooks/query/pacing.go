package query

import (
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Pacing is how an endpoint's deliveries are paced (docs/webhook-receivers.md, "Rate limit, order,
// backlog"): rateLimit deliveries per second at most (null: no limit), ordered one at a
// time in event order, and pausedUntil a receiver's 429 Retry-After still running.
type Pacing struct {
	RateLimit   *int       `json:"rateLimit"`
	Ordered     bool       `json:"ordered"`
	PausedUntil *time.Time `json:"pausedUntil,omitempty"`
}

// PacingView maps an endpoint's pacing.
func PacingView(s *webhooks.Subscription) Pacing {
	p := Pacing{Ordered: s.Pacing.Ordered, PausedUntil: s.PausedUntil}
	if s.Pacing.RateLimit > 0 {
		n := s.Pacing.RateLimit
		p.RateLimit = &n
	}
	return p
}
