package consumers

import (
	"context"

	"github.com/creatorapi/creatorapi/application/events"
	"github.com/creatorapi/creatorapi/application/orders"
	"github.com/creatorapi/creatorapi/application/orders/command"
)

// OrderEntitlementsName is the consumer group of the orders' reaction to revocations.
const OrderEntitlementsName = "order-entitlements"

// OrderEntitlements stamps an order's entitlement when the enrollment it granted is
// revoked outside the order (an operator's revoke, or another order's refund).
func OrderEntitlements(app orders.Application) events.Consumer {
	return events.Consumer{
		Name:  OrderEntitlementsName,
		Types: []events.Type{events.EnrollmentRevoked},
		Handle: func(ctx context.Context, ev events.Envelope) error {
			if ev.Type != events.EnrollmentRevoked {
				return nil // replays may still bring others
			}
			enrollment, err := events.EnrollmentRevokedV1.Decode(ev)
			if err != nil {
				return err
			}
			at := ev.CreatedAt
			if enrollment.RevokedAt != nil {
				at = *enrollment.RevokedAt
			}
			_, err = app.Commands.RecordEnrollmentRevoked.Handle(ctx, command.RecordEnrollmentRevoked{
				WorkspaceID: ev.WorkspaceID, EnrollmentID: enrollment.ID, RevokedAt: at,
			})
			return err
		},
	}
}
