package command

import (
	"context"
	"fmt"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/orders/query"
)

// RefundOrder returns money to the student (emits order.refunded; a full refund first
// revokes the order's enrollments, emitting enrollment.revoked for each).
type RefundOrder struct {
	WorkspaceID string
	OrderID     string
	Amount      *int64 // nil: everything left
}

// RefundOrderHandler handles RefundOrder.
type RefundOrderHandler struct{ deps Deps }

// NewRefundOrderHandler builds the handler.
func NewRefundOrderHandler(d Deps) RefundOrderHandler { return RefundOrderHandler{deps: d} }

// Handle refunds under the order's row lock, so that concurrent refunds see each
// other's amounts and can never return more than was paid.
func (h RefundOrderHandler) Handle(ctx context.Context, cmd RefundOrder) (out query.Order, err error) {
	o, err := h.deps.Repo.Get(ctx, cmd.WorkspaceID, cmd.OrderID)
	if err != nil {
		return out, err
	}
	now := h.deps.Clock.Now()
	if _, err := o.Refund(cmd.Amount, now); err != nil {
		return out, err
	}
	if o.Remaining() == 0 {
		for _, enrollmentID := range o.RevokeAll(now) {
			// A course bought twice shares one enrollment: refunding one purchase must
			// not take away access another live purchase still grants.
			others, err := h.deps.Repo.LiveGrantsElsewhere(ctx, cmd.WorkspaceID, enrollmentID, o.ID)
			if err != nil {
				return out, err
			}
			if others > 0 {
				continue
			}
			if err := h.deps.Entitlements.Revoke(ctx, cmd.WorkspaceID, enrollmentID); err != nil {
				return out, fmt.Errorf("revoke %s: %w", enrollmentID, err)
			}
		}
	}
	if err := h.deps.Repo.Update(ctx, o); err != nil {
		return out, err
	}
	out = query.FromDomain(o)
	return out, h.deps.Publisher.Publish(ctx, events.OrderRefundedV1.New(cmd.WorkspaceID, out))
}
