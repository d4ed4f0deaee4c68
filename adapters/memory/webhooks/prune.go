package webhooks

import (
	"context"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// Prune deletes attempts made before before, deliveries finished (not pending) and last
// updated before it, with their remaining attempts, and notices sent before it; it
// returns the rows deleted (a delivery's remaining attempts go with it uncounted, as the
// SQL twin's cascade does).
func (r Retention) Prune(_ context.Context, before time.Time) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	total := 0
	for id, list := range r.attempts {
		kept := list[:0:0]
		for _, a := range list {
			if a.At.Before(before) {
				total++
				continue
			}
			kept = append(kept, a)
		}
		r.attempts[id] = kept
	}
	for id, d := range r.deliveries {
		if d.d.Status != webhooks.Pending && d.d.UpdatedAt.Before(before) {
			delete(r.deliveries, id)
			delete(r.byEvent, eventKey{d.d.SubscriptionID, d.d.EventID})
			delete(r.attempts, id)
			total++
		}
	}
	for id, n := range r.notices {
		if n.sentAt != nil && n.sentAt.Before(before) {
			delete(r.notices, id)
			total++
		}
	}
	return total, nil
}
