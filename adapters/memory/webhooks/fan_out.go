package webhooks

import (
	"context"
	"sort"
	"time"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// FanOut writes one delivery of the event for each enabled endpoint of its workspace that
// wants its type and has none of it yet, leased under f.Token when set; of racing
// fan-outs of one event exactly one writes each delivery. The twin has no transactions: it
// writes at once and tells written.
func (r Dispatch) FanOut(ctx context.Context, f webhooks.Fan, newID func() string, written func(context.Context, []webhooks.Lease)) error {
	r.mu.Lock()
	var wanted []*webhooks.Subscription
	for _, s := range r.subs {
		if s.WorkspaceID == f.WorkspaceID && s.Status == webhooks.Enabled && s.Wants(f.EventType) {
			wanted = append(wanted, endpoint(r.opened(s))) // secrets are stored sealed
		}
	}
	r.mu.Unlock()
	sort.Slice(wanted, func(i, j int) bool { return wanted[i].ID < wanted[j].ID })
	var until *time.Time
	if f.Token != "" {
		until = &f.Until
	}
	var leases []webhooks.Lease
	for _, s := range wanted {
		d := webhooks.NewDelivery(newID(), s, f.EventID, f.EventType, f.Payload, f.At)
		added, err := Deliveries{r.Store}.add(d, f.Token, until)
		if err != nil {
			return err
		}
		if added {
			leases = append(leases, webhooks.Lease{Delivery: cloneDelivery(d), Endpoint: s, Token: f.Token, Until: f.Until})
		}
	}
	written(ctx, leases)
	return nil
}

// FinishSucceeded is Finish, then the saved ones' attempt lines and the end of their
// endpoints' failing streaks.
func (r Dispatch) FinishSucceeded(ctx context.Context, fs []webhooks.Finished, as []webhooks.Attempt) ([]bool, error) {
	saved, err := r.Finish(ctx, fs)
	if err != nil {
		return nil, err
	}
	var logged []webhooks.Attempt
	healthy := map[string][]string{} // workspace: endpoints
	for i, ok := range saved {
		if ok {
			logged = append(logged, as[i])
			ws := fs[i].Delivery.WorkspaceID
			healthy[ws] = append(healthy[ws], fs[i].Delivery.SubscriptionID)
		}
	}
	if err := (Deliveries{r.Store}).AddAttempts(ctx, logged); err != nil {
		return nil, err
	}
	for ws, ids := range healthy {
		if err := (Subscriptions{r.Store}).MarkHealthy(ctx, ws, ids); err != nil {
			return nil, err
		}
	}
	return saved, nil
}
