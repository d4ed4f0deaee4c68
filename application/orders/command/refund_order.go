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

// RefundOrder refunds under the order's row lock, so that concurrent refunds see each
// other's amounts and can never return more than was paid.
func (d Deps) RefundOrder(ctx context.Context, cmd RefundOrder) (query.Order, error) {
	o, err := platform.Change(ctx, d.Repo, cmd.WorkspaceID, cmd.OrderID, func(o *orders.Order) error {
		now := d.Clock.Now()
		if _, err := o.Refund(cmd.Amount, now); err != nil || o.Remaining() > 0 {
			return err
		}
		return d.revokeAll(ctx, o, now)
	})
	if err != nil {
		return query.Order{}, err
	}
	out := query.FromDomain(o)
	return out, d.Publisher.Publish(ctx, events.OrderRefundedV1.New(cmd.WorkspaceID, out))
}

// revokeAll takes back the enrollments of a fully refunded order.
func (d Deps) revokeAll(ctx context.Context, o *orders.Order, now time.Time) error {
	for _, enrollmentID := range o.RevokeAll(now) {
		// A course bought twice shares one enrollment: refunding one purchase must
		// not take away access another live purchase still grants.
		others, err := d.Repo.LiveGrantsElsewhere(ctx, o.WorkspaceID, enrollmentID, o.ID)
		if err != nil {
			return err
		}
		if others > 0 {
			continue
		}
		if err := d.Entitlements.Revoke(ctx, o.WorkspaceID, enrollmentID); err != nil {
			return fmt.Errorf("revoke %s: %w", enrollmentID, err)
		}
	}
	return nil
}
