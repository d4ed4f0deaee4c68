package webhooks

import (
	"context"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// claimCandidates is the SQL claim's window: it looks at limit*claimCandidates due rows
// in order, then keeps those within their endpoint's room.
const claimCandidates = 4

// ClaimDue leases up to limit deliveries of endpoints not disabled, due at now, at most
// room.Of(subscriptionID) per endpoint, oldest due first. Under the mutex, two claimers
// never take the same delivery.
func (r Dispatch) ClaimDue(_ context.Context, now, until time.Time, token string, limit int, room webhooks.Room) ([]webhooks.Lease, error) {
	if limit <= 0 {
		return nil, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var due []*delivery
	for _, d := range r.deliveries {
		sub, ok := r.subs[d.d.SubscriptionID]
		if ok && sub.WorkspaceID == d.d.WorkspaceID && sub.Status != webhooks.Disabled && d.d.NextAttemptAt != nil &&
			!d.d.NextAttemptAt.After(now) && (d.leaseUntil == nil || !d.leaseUntil.After(now)) {
			due = append(due, d)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		a, b := due[i].d, due[j].d
		if !a.NextAttemptAt.Equal(*b.NextAttemptAt) {
			return a.NextAttemptAt.Before(*b.NextAttemptAt)
		}
		return a.ID < b.ID
	})
	if len(due) > limit*claimCandidates {
		due = due[:limit*claimCandidates]
	}
	taken := map[string]int{}
	endpoints := map[string]*webhooks.Subscription{}
	out := []webhooks.Lease{}
	u := until.UTC()
	for _, d := range due {
		if len(out) == limit {
			break
		}
		id := d.d.SubscriptionID
		if taken[id] >= room.Of(id) {
			continue
		}
		taken[id]++
		d.leaseUntil, d.leaseToken = &u, token
		sub, ok := endpoints[id]
		if !ok {
			sub = endpoint(r.opened(r.subs[id]))
			endpoints[id] = sub
		}
		out = append(out, webhooks.Lease{Delivery: cloneDelivery(d.d), Endpoint: sub, Token: token, Until: u})
	}
	return out, nil
}

// endpoint is what sending needs of a claimed delivery's endpoint.
func endpoint(c *webhooks.Subscription) *webhooks.Subscription {
	return &webhooks.Subscription{
		ID: c.ID, WorkspaceID: c.WorkspaceID, URL: c.URL, Status: webhooks.Enabled, Secret: c.Secret,
		SecretUnreadable: c.SecretUnreadable, Previous: c.Previous, PreviousExpiresAt: c.PreviousExpiresAt,
	}
}

// leased returns the delivery while token holds its lease; the caller holds the lock.
func (s *Store) leased(workspaceID, id, token string) (*delivery, bool) {
	d, ok := s.find(workspaceID, id)
	if !ok || d.leaseToken != token {
		return nil, false
	}
	return d, true
}

// GetLeased returns the delivery while token still holds its lease, else NotFound.
func (r Dispatch) GetLeased(_ context.Context, workspaceID, id, token string) (*webhooks.Delivery, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.leased(workspaceID, id, token)
	if !ok {
		return nil, kernel.NotFound("delivery %s is no longer leased by this dispatcher", id)
	}
	return cloneDelivery(d.d), nil
}

// Complete saves d and ends token's lease (nothing when token no longer holds it).
func (r Dispatch) Complete(_ context.Context, d *webhooks.Delivery, token string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if stored, ok := r.leased(d.WorkspaceID, d.ID, token); ok {
		stored.d, stored.leaseUntil, stored.leaseToken = withState(stored.d, d), nil, ""
	}
	return nil
}

// Finish saves each delivery whose token still holds its lease and whose cycle is still
// the claimed one, ending the lease; a delivery listed twice counts once (the first).
func (r Dispatch) Finish(_ context.Context, fs []webhooks.Finished) ([]bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	saved := make([]bool, len(fs))
	seen := map[string]bool{}
	for i, f := range fs {
		d := f.Delivery
		if seen[d.ID] {
			continue
		}
		seen[d.ID] = true
		stored, ok := r.leased(d.WorkspaceID, d.ID, f.Token)
		if !ok || stored.d.CycleAttempts != f.Cycle {
			continue
		}
		stored.d, stored.leaseUntil, stored.leaseToken = withState(stored.d, d), nil, ""
		saved[i] = true
	}
	return saved, nil
}

// Release gives a lease back unused, so that the delivery is claimable at once.
func (r Dispatch) Release(_ context.Context, workspaceID, id, token string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if d, ok := r.leased(workspaceID, id, token); ok {
		d.leaseUntil, d.leaseToken = nil, ""
	}
	return nil
}
