package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/domain/webhooks"
)

// ClaimDueHandler leases due deliveries to the calling dispatcher.
type ClaimDueHandler struct{ d Deps }

// NewClaimDueHandler builds the handler.
func NewClaimDueHandler(d Deps) ClaimDueHandler { return ClaimDueHandler{d: d} }

// Handle claims up to limit deliveries, at most room.Of(endpoint) per endpoint, under one
// fresh lease token.
func (h ClaimDueHandler) Handle(ctx context.Context, limit int, room webhooks.Room) ([]webhooks.Lease, error) {
	now := h.d.Clock.Now()
	token := h.d.IDs.New("lease")
	leases, err := h.d.Dispatch.ClaimDue(ctx, now, now.Add(h.d.Settings.Lease), token, limit, room)
	if err != nil {
		return nil, fmt.Errorf("claim due deliveries: %w", err)
	}
	return h.claimGated(ctx, now, token, limit, room, leases)
}

// ReleaseHandler gives back a lease the dispatcher could not use in time.
type ReleaseHandler struct{ d Deps }

// NewReleaseHandler builds the handler.
func NewReleaseHandler(d Deps) ReleaseHandler { return ReleaseHandler{d: d} }

// Handle makes the delivery claimable again at once.
func (h ReleaseHandler) Handle(ctx context.Context, l webhooks.Lease) error {
	if err := h.d.Dispatch.Release(ctx, l.Delivery.WorkspaceID, l.Delivery.ID, l.Token); err != nil {
		return fmt.Errorf("release delivery: %w", err)
	}
	return nil
}
