package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
)

// MaxRateLimit bounds an endpoint's rate limit (deliveries per second).
const MaxRateLimit = 1000

// Pacing is an endpoint's delivery pacing, set by its owner: RateLimit deliveries per
// second at most (0: no limit), and Ordered: one delivery at a time, in event order.
type Pacing struct {
	RateLimit int
	Ordered   bool
}

// ValidatePacing refuses a rate limit outside 1..MaxRateLimit (0 means none).
func ValidatePacing(p Pacing) error {
	if p.RateLimit < 0 || p.RateLimit > MaxRateLimit {
		return kernel.Invalid("rateLimit", "rateLimit: deliveries per second, from 1 to %d (omit it for no limit)", MaxRateLimit)
	}
	return nil
}

// SetPacing changes the endpoint's pacing.
func (s *Subscription) SetPacing(p Pacing, now time.Time) error {
	if err := ValidatePacing(p); err != nil {
		return err
	}
	s.Pacing, s.UpdatedAt = p, now
	return nil
}

// Gated tells whether the endpoint's deliveries go through the gated claim: it has a rate
// limit, is ordered, or a receiver's 429 paused it.
func (s *Subscription) Gated() bool {
	return s.Pacing.RateLimit > 0 || s.Pacing.Ordered || s.PausedUntil != nil
}

// Interval is the time between two sends of a rate-limited endpoint (0: no limit), in
// whole microseconds rounded up: the database keeps the slots at that precision, so every
// instance (and PostgreSQL's one-statement claim) spaces them alike, never closer than
// 1/RateLimit.
func (p Pacing) Interval() time.Duration {
	if p.RateLimit <= 0 {
		return 0
	}
	return time.Duration((1_000_000+p.RateLimit-1)/p.RateLimit) * time.Microsecond
}

// Pause returns how long a receiver asked the endpoint to wait (a 429's Retry-After,
// capped at maxWait), or 0 when the result asks for nothing.
func Pause(r Result, maxWait time.Duration) time.Duration {
	if r.StatusCode != 429 || r.RetryAfter <= 0 {
		return 0
	}
	return min(r.RetryAfter, maxWait)
}

// Gates pace the deliveries of gated endpoints (rate limit, order, a receiver's pause)
// across every instance, and bring an endpoint's waiting deliveries forward.
type Gates interface {
	// ClaimGated leases, at now until until, the due deliveries of gated endpoints that
	// their gates allow: for an ordered endpoint its earliest pending delivery, when it is
	// due and no attempt of the endpoint is in flight; for a rate-limited one as many as its
	// free send slots before now+horizon allow, each lease starting at its slot
	// (Lease.NotBefore). At most limit in all and room.Of per endpoint. Endpoints whose
	// pause ended and that have no other gate are opened again (their deliveries go back to
	// the open claim).
	ClaimGated(ctx context.Context, now, until time.Time, token string, limit int, room Room, horizon time.Duration) ([]Lease, error)
	// Pause gates the endpoint until until (a receiver's Retry-After): nothing of it is
	// claimed before then, on any instance.
	Pause(ctx context.Context, workspaceID, id string, until time.Time) error
	// SetPacing stores s's pacing and moves its pending deliveries to the claim that now
	// applies to them.
	SetPacing(ctx context.Context, s *Subscription) error
	// BringForward makes the waiting retries of the endpoints ids due at now (a success
	// showed the receiver is back) and returns how many it moved. With lift, a pause of
	// theirs ends too (the owner's "send waiting deliveries now").
	BringForward(ctx context.Context, workspaceID string, ids []string, now time.Time, lift bool) (int, error)
}
