package command

import (
	"context"
	"fmt"
	"time"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/orders/query"
	"github.com/creatorapi/creatorapi/application/platform"
	"github.com/creatorapi/creatorapi/domain/orders"
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
func (h RefundOrderHandler) Handle(ctx context.Context, cmd RefundOrder) (query.Order, error) {
	o, err := platform.Change(ctx, h.deps.Repo, cmd.WorkspaceID, cmd.OrderID, func(o *orders.Order) error {
		now := h.deps.Clock.Now()
		if _, err := o.Refund(cmd.Amount, now); err != nil || o.Remaining() > 0 {
			return err
		}
		return h.revokeAll(ctx, o, now)
	})
	if err != nil {
		return query.Order{}, err
	}
	out := query.FromDomain(o)
	return out, h.deps.Publisher.Publish(ctx, events.OrderRefundedV1.New(cmd.WorkspaceID, out))
}

// revokeAll takes back the enrollments of a fully refunded order.
func (h RefundOrderHandler) revokeAll(ctx context.Context, o *orders.Order, now time.Time) error {
	for _, enrollmentID := range o.RevokeAll(now) {
		// A course bought twice shares one enrollment: refunding one purchase must
		// not take away access another live purchase still grants.
		others, err := h.deps.Repo.LiveGrantsElsewhere(ctx, o.WorkspaceID, enrollmentID, o.ID)
		if err != nil {
			return err
		}
		if others > 0 {
			continue
		}
		if err := h.deps.Entitlements.Revoke(ctx, o.WorkspaceID, enrollmentID); err != nil {
			return fmt.Errorf("revoke %s: %w", enrollmentID, err)
		}
	}
	return nil
}
