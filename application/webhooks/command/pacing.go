package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// GateHorizon is how far ahead a claim takes a rate-limited endpoint's send slots: the
// dispatcher's idle poll (1 s) then keeps the pace without a claim per delivery.
const GateHorizon = time.Second

// PacingChange sets an endpoint's pacing on create or update; nil fields stay as they are.
type PacingChange struct {
	RateLimit *int // 0: no limit
	Ordered   *bool
}

// applyPacing validates and stores the change (nothing when it changes nothing).
func (d Deps) applyPacing(ctx context.Context, s *webhooks.Subscription, c PacingChange) error {
	if c.RateLimit == nil && c.Ordered == nil {
		return nil
	}
	p := s.Pacing
	if c.RateLimit != nil {
		p.RateLimit = *c.RateLimit
	}
	if c.Ordered != nil {
		p.Ordered = *c.Ordered
	}
	if err := s.SetPacing(p, d.Clock.Now()); err != nil {
		return err
	}
	if d.Gates == nil {
		return fmt.Errorf("set webhook pacing: no gates configured")
	}
	return d.Gates.SetPacing(ctx, s)
}

// SendWaiting makes an endpoint's waiting deliveries due now.
type SendWaiting struct {
	WorkspaceID string
	WebhookID   string
}

// Queued counts the deliveries SendWaiting made due.
type Queued struct {
	Queued int `json:"queued"`
}

// SendWaiting makes every waiting retry of the endpoint due now and ends a receiver's
// pause (the owner says the receiver is ready): they go out at once, at the pace of the
// endpoint's rate limit and order. Refused while the endpoint is disabled.
func (d Deps) SendWaiting(ctx context.Context, cmd SendWaiting) (Queued, error) {
	s, err := d.Subs.GetForUpdate(ctx, cmd.WorkspaceID, cmd.WebhookID)
	if err != nil {
		return Queued{}, err
	}
	if s.Status == webhooks.Disabled {
		return Queued{}, kernel.Invalid("id", "webhook %s is disabled: enable it first", s.ID)
	}
	n, err := d.Gates.BringForward(ctx, s.WorkspaceID, []string{s.ID}, d.Clock.Now(), true)
	if err != nil {
		return Queued{}, err
	}
	d.Waker.Wake(ctx)
	return Queued{Queued: n}, d.Audit.Record(ctx, platform.AuditEntry{WorkspaceID: s.WorkspaceID, Action: "webhook.waiting_sent",
		Target: s.ID, Detail: fmt.Sprintf("%d waiting deliveries made due now", n)})
}

// claimGated adds the gated endpoints' deliveries to a claim, within what is left of
// limit and the room.
func (h ClaimDueHandler) claimGated(ctx context.Context, now time.Time, token string, limit int, room webhooks.Room, claimed []webhooks.Lease) ([]webhooks.Lease, error) {
	if h.d.Gates == nil || limit <= len(claimed) {
		return claimed, nil
	}
	if len(claimed) > 0 {
		inFlight := make(map[string]int, len(room.InFlight)+len(claimed))
		for id, n := range room.InFlight {
			inFlight[id] = n
		}
		for _, l := range claimed {
			inFlight[l.Endpoint.ID]++
		}
		room.InFlight = inFlight
	}
	gated, err := h.d.Gates.ClaimGated(ctx, now, now.Add(h.d.Settings.Lease), token, limit-len(claimed), room, GateHorizon)
	if err != nil {
		return claimed, err
	}
	return append(claimed, gated...), nil
}

// pauses gates the endpoints whose receivers answered 429 with a Retry-After, each until
// the latest time asked in the batch.
func (h RecordAttemptHandler) pauses(ctx context.Context, cmds []RecordAttempt, out []Recorded) error {
	if h.d.Gates == nil {
		return nil
	}
	type key struct{ ws, id string }
	until := map[key]time.Time{}
	for i, cmd := range cmds {
		wait := webhooks.Pause(cmd.Result, h.d.Settings.Policy.MaxRetryAfter)
		if wait <= 0 || out[i].Err != nil {
			continue
		}
		k := key{cmd.Lease.Delivery.WorkspaceID, cmd.Lease.Delivery.SubscriptionID}
		if t := cmd.At.Add(wait); t.After(until[k]) {
			until[k] = t
		}
	}
	for k, t := range until {
		if err := h.d.Gates.Pause(ctx, k.ws, k.id, t); err != nil {
			return err
		}
	}
	return nil
}
