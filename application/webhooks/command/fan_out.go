package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// FanOutHandler turns one event into one delivery per enabled endpoint of the event's
// workspace that wants its type. It only writes rows: sending is the dispatcher's job.
type FanOutHandler struct{ d Deps }

// NewFanOutHandler builds the handler.
func NewFanOutHandler(d Deps) FanOutHandler { return FanOutHandler{d: d} }

// Handle joins the transaction in ctx, the one that publishes the event (the fan-out is an
// inline consumer, events.Consumer.Inline), so the deliveries commit with the event. It is
// idempotent: an event applied again (Ledger.Retire) finds its deliveries already there.
func (h FanOutHandler) Handle(ctx context.Context, ev events.Envelope) error {
	if !events.IsWebhookType(ev.Type) {
		return nil
	}
	// With a dispatcher in this process, each delivery is written leased to it and handed
	// over after the commit: no claim statement, no second write of the row. The writes may
	// wait for the end of the transaction (the deliveries of all its events in one
	// statement): the leases are handed, or the dispatcher woken, after the commit.
	handing := h.d.Handoff != nil && h.d.Handoff.Leasing()
	written := func(ctx context.Context, leases []webhooks.Lease) {
		switch {
		case len(leases) == 0:
		case handing:
			h.d.Handoff.Hand(ctx, leases)
		default:
			h.d.Waker.Wake(ctx)
		}
	}
	err := h.d.Tx.WithinTx(ctx, func(ctx context.Context) error {
		now := h.d.Clock.Now()
		// One fan per payload version (one in production while v1 has no successor): each
		// reaches only the endpoints created under its version, with the event rendered at
		// it. These bytes are signed and sent on every attempt, unchanged.
		for _, version := range h.d.payloadVersions() {
			payload, err := version.Payload(ev)
			if err != nil {
				return err
			}
			f := webhooks.Fan{WorkspaceID: ev.WorkspaceID, EventID: ev.ID, EventType: string(ev.Type), Payload: payload,
				PayloadVersion: version.Number, At: now, Exclude: events.DescribedEndpoint(ev)}
			if handing {
				f.Token, f.Until = h.d.IDs.New("lease"), now.Add(h.d.Settings.Lease)
			}
			if err := h.d.Dispatch.FanOut(ctx, f, func() string { return h.d.IDs.New(webhooks.DeliveryIDPrefix) }, written); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("fan out %s: %w", ev.ID, err)
	}
	return nil
}
