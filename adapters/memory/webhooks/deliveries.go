package webhooks

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/kernel"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// AddIfAbsent inserts d unless its endpoint already has a delivery of the event.
func (r Deliveries) AddIfAbsent(_ context.Context, d *webhooks.Delivery) (bool, error) {
	return r.add(d, "", nil)
}

// AddLeased inserts d leased under token until until, unless its endpoint already has a
// delivery of the event.
func (r Deliveries) AddLeased(_ context.Context, d *webhooks.Delivery, token string, until time.Time) (bool, error) {
	return r.add(d, token, &until)
}

// add keeps the table's rules: one delivery per (endpoint, event), the id unique, the
// endpoint stored (the foreign key).
func (r Deliveries) add(d *webhooks.Delivery, token string, until *time.Time) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := eventKey{d.SubscriptionID, d.EventID}
	if _, dup := r.byEvent[key]; dup {
		return false, nil
	}
	if _, taken := r.deliveries[d.ID]; taken {
		return false, fmt.Errorf("insert delivery: id %s exists", d.ID)
	}
	if _, ok := r.subs[d.SubscriptionID]; !ok {
		return false, fmt.Errorf("insert delivery: endpoint %s does not exist", d.SubscriptionID)
	}
	r.deliveries[d.ID] = &delivery{d: cloneDelivery(d), leaseToken: token, leaseUntil: utc(until)}
	r.byEvent[key] = d.ID
	return true, nil
}

// find returns the stored delivery of the workspace; the caller holds the lock.
func (s *Store) find(workspaceID, id string) (*delivery, bool) {
	d, ok := s.deliveries[id]
	if !ok || d.d.WorkspaceID != workspaceID {
		return nil, false
	}
	return d, true
}

// Get returns the delivery of the workspace or NotFound.
func (r Deliveries) Get(_ context.Context, workspaceID, id string) (*webhooks.Delivery, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.find(workspaceID, id)
	if !ok {
		return nil, kernel.NotFound("delivery %s not found", id)
	}
	return cloneDelivery(d.d), nil
}

// Save writes the delivery's state; a lease held on it stays.
func (r Deliveries) Save(_ context.Context, d *webhooks.Delivery) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if stored, ok := r.find(d.WorkspaceID, d.ID); ok {
		stored.d = withState(stored.d, d)
	}
	return nil
}

// withState is old with the mutable state of d (what the SQL UPDATE sets).
func withState(old, d *webhooks.Delivery) *webhooks.Delivery {
	next := cloneDelivery(old)
	next.Status, next.Attempts, next.CycleAttempts, next.CycleFailedAt = d.Status, d.Attempts, d.CycleAttempts, utc(d.CycleFailedAt)
	next.NextAttemptAt, next.LastAttemptAt, next.LastStatus, next.LastError = utc(d.NextAttemptAt), utc(d.LastAttemptAt), d.LastStatus, d.LastError
	next.UpdatedAt = d.UpdatedAt.UTC()
	return next
}

// AddAttempts appends lines to the attempt log, all or none: a line's delivery must be
// stored (the foreign key) and its number new for the delivery (the primary key).
func (r Deliveries) AddAttempts(_ context.Context, as []webhooks.Attempt) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	type line struct {
		id     string
		number int
	}
	seen := map[line]bool{}
	for _, a := range as {
		if _, ok := r.deliveries[a.DeliveryID]; !ok {
			return fmt.Errorf("insert attempts: delivery %s does not exist", a.DeliveryID)
		}
		l := line{a.DeliveryID, a.Number}
		if seen[l] {
			return fmt.Errorf("insert attempts: attempt %d of %s twice", a.Number, a.DeliveryID)
		}
		seen[l] = true
		for _, old := range r.attempts[a.DeliveryID] {
			if old.Number == a.Number {
				return fmt.Errorf("insert attempts: attempt %d of %s exists", a.Number, a.DeliveryID)
			}
		}
	}
	for _, a := range as {
		a.At, a.Latency = a.At.UTC(), a.Latency.Truncate(time.Millisecond)
		list := append(r.attempts[a.DeliveryID], a)
		sort.Slice(list, func(i, j int) bool { return list[i].Number < list[j].Number })
		r.attempts[a.DeliveryID] = list
	}
	return nil
}

// Attempts returns the attempt logs of the workspace's deliveries, oldest first.
func (r Deliveries) Attempts(_ context.Context, workspaceID string, deliveryIDs []string) (map[string][]webhooks.Attempt, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]webhooks.Attempt{}
	for _, id := range deliveryIDs {
		for _, a := range r.attempts[id] {
			if a.WorkspaceID == workspaceID {
				out[id] = append(out[id], a)
			}
		}
	}
	return out, nil
}

// ResendFailed starts a new cycle for the endpoint's failed deliveries created in [since, until).
func (r Deliveries) ResendFailed(_ context.Context, workspaceID, subscriptionID string, since, until, now time.Time) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, d := range r.deliveries {
		x := d.d
		if x.WorkspaceID != workspaceID || x.SubscriptionID != subscriptionID || x.Status != webhooks.DeliveryFailed ||
			x.CreatedAt.Before(since) || !x.CreatedAt.Before(until) {
			continue
		}
		next := cloneDelivery(x)
		next.Resend(now.UTC())
		d.d = next
		n++
	}
	return n, nil
}

// Page lists the endpoint's deliveries newest first; status "" means any.
func (r Deliveries) Page(_ context.Context, workspaceID, subscriptionID, status string, req platform.PageRequest) (platform.Page[*webhooks.Delivery], error) {
	return r.page(req, func(d *webhooks.Delivery) bool {
		return d.WorkspaceID == workspaceID && d.SubscriptionID == subscriptionID && (status == "" || string(d.Status) == status)
	}), nil
}

// page is the keyset page of the deliveries keep admits, newest first.
func (s *Store) page(req platform.PageRequest, keep func(*webhooks.Delivery) bool) platform.Page[*webhooks.Delivery] {
	s.mu.Lock()
	defer s.mu.Unlock()
	var items []*webhooks.Delivery
	for _, d := range s.deliveries {
		if keep(d.d) {
			items = append(items, cloneDelivery(d.d))
		}
	}
	return platform.SeekPage(items, req, position)
}
