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
	created := 0
	err = h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		subs, err := h.d.Subs.Enabled(ctx, ev.WorkspaceID, string(ev.Type))
		if err != nil {
			return err
		}
		now := h.d.Clock.Now()
		for _, s := range subs {
			d := webhooks.NewDelivery(h.d.IDs.New(webhooks.DeliveryIDPrefix), s, ev.ID, string(ev.Type), payload, now)
			ok, err := h.d.Deliveries.AddIfAbsent(ctx, d)
			if err != nil {
				return err
			}
			if ok {
				created++
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fan out %s: %w", ev.ID, err)
	}
	if created > 0 {
		h.d.Waker.Wake(ctx)
	}
	return nil
}
