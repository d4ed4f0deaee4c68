package command

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// FanOutHandler turns one event into one delivery per enabled endpoint of the event's
// workspace that wants its type. It only writes rows: sending is the dispatcher's job.
type FanOutHandler struct{ d Deps }

// NewFanOutHandler builds the handler.
func NewFanOutHandler(d Deps) FanOutHandler { return FanOutHandler{d: d} }

// Handle is idempotent: a replayed event finds its deliveries already there. It joins the
// transaction in ctx (the event subscriber's), so the rows commit with the consumer offset.
func (h FanOutHandler) Handle(ctx context.Context, ev events.Envelope) error {
	if !events.IsPublic(ev.Type) {
		return nil
	}
	// These bytes are signed and sent on every attempt, unchanged.
	payload, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("fan out %s: %w", ev.ID, err)
	}
	var leases []webhooks.Lease
	created := 0
	err = h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		subs, err := h.d.Subs.Enabled(ctx, ev.WorkspaceID, string(ev.Type))
		if err != nil {
			return err
		}
		now := h.d.Clock.Now()
		// With a dispatcher in this process, each delivery is written leased to it and
		// handed over after the commit: no claim statement, no second write of the row.
		handing := h.d.Handoff != nil && h.d.Handoff.Leasing()
		token, until := "", now.Add(h.d.Settings.Lease)
		if handing {
			token = h.d.IDs.New("lease")
		}
		for _, s := range subs {
			d := webhooks.NewDelivery(h.d.IDs.New(webhooks.DeliveryIDPrefix), s, ev.ID, string(ev.Type), payload, now)
			var ok bool
			if handing {
				ok, err = h.d.Deliveries.AddLeased(ctx, d, token, until)
			} else {
				ok, err = h.d.Deliveries.AddIfAbsent(ctx, d)
			}
			if err != nil {
				return err
			}
			if ok {
				created++
				if handing {
					leases = append(leases, webhooks.Lease{Delivery: d, Endpoint: s, Token: token, Until: until})
				}
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fan out %s: %w", ev.ID, err)
	}
	switch {
	case len(leases) > 0:
		h.d.Handoff.Hand(ctx, leases)
	case created > 0:
		h.d.Waker.Wake(ctx)
	}
	return nil
}
